-- Duty leases (module platform).

-- Takes or renews the lease when it is free, expired, or already ours: one statement, so two
-- instances cannot both take it.
-- name: take
UPDATE duty_lease SET holder = ?, expires_at = ?
WHERE duty = ? AND (holder = ? OR expires_at < ?);

-- name: release
UPDATE duty_lease SET expires_at = ? WHERE duty = ? AND holder = ?;
