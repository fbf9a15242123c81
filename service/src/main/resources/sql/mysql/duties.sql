-- Duty leases on MySQL and MariaDB, timed by the database's clock in UTC (UTC_TIMESTAMP(6), as
-- every DATETIME here is UTC); the parameter is the lease's length in microseconds.

-- Takes or renews the lease when it is free, expired, or already ours: one statement, so two
-- instances cannot both take it.
-- name: take
UPDATE duty_lease SET holder = ?, expires_at = TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(6))
WHERE duty = ? AND (holder = ? OR expires_at < UTC_TIMESTAMP(6));

-- name: create
INSERT IGNORE INTO duty_lease (duty, holder, expires_at) VALUES (?, ?, TIMESTAMPADD(MICROSECOND, ?, UTC_TIMESTAMP(6)));

-- name: release
UPDATE duty_lease SET expires_at = TIMESTAMPADD(SECOND, -1, UTC_TIMESTAMP(6)) WHERE duty = ? AND holder = ?;
