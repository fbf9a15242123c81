-- Duty leases on PostgreSQL, timed by the database's clock (clock_timestamp()); the parameter is the
-- lease's length in seconds.

-- Takes or renews the lease when it is free, expired, or already ours: one statement, so two
-- instances cannot both take it.
-- name: take
UPDATE duty_lease SET holder = ?, expires_at = clock_timestamp() + make_interval(secs => ?)
WHERE duty = ? AND (holder = ? OR expires_at < clock_timestamp());

-- name: create
INSERT INTO duty_lease (duty, holder, expires_at) VALUES (?, ?, clock_timestamp() + make_interval(secs => ?))
ON CONFLICT (duty) DO NOTHING;

-- name: release
UPDATE duty_lease SET expires_at = clock_timestamp() - INTERVAL '1 second' WHERE duty = ? AND holder = ?;
