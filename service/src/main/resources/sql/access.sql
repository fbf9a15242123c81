-- Access statements (module access): people, login throttling and console-made API keys.

-- name: people
SELECT name, role, password_hash, enabled, created_at, created_by, updated_at
FROM person
ORDER BY name
LIMIT ?;

-- name: person
SELECT name, role, password_hash, enabled, created_at, created_by, updated_at
FROM person
WHERE name = ?;

-- name: insertPerson
INSERT INTO person (name, role, password_hash, enabled, created_at, created_by, updated_at)
VALUES (?, ?, ?, TRUE, ?, ?, ?);

-- name: setRole
UPDATE person SET role = ?, updated_at = ? WHERE name = ?;

-- name: setEnabled
UPDATE person SET enabled = ?, updated_at = ? WHERE name = ?;

-- name: setPassword
UPDATE person SET password_hash = ?, updated_at = ? WHERE name = ?;

-- name: countPeople
SELECT COUNT(*) FROM person;

-- The throttle row of a login name, locked: failures of one name from several instances count
-- one after the other.
-- name: lockThrottle
SELECT failures, window_started_at, throttled_until
FROM login_throttle
WHERE name = ?
FOR UPDATE;

-- name: throttledUntil
SELECT throttled_until FROM login_throttle WHERE name = ?;

-- name: updateThrottle
UPDATE login_throttle SET failures = ?, window_started_at = ?, throttled_until = ? WHERE name = ?;

-- name: clearThrottle
DELETE FROM login_throttle WHERE name = ?;

-- Names whose window has passed and that are not throttled any more: nothing left to remember.
-- name: sweepThrottles
DELETE FROM login_throttle
WHERE window_started_at < ? AND (throttled_until IS NULL OR throttled_until < ?);

-- name: keys
SELECT name, kind, secret_hash, created_at, created_by, revoked_at, revoked_by
FROM api_key
ORDER BY name
LIMIT ?;

-- name: countKeys
SELECT COUNT(*) FROM api_key;

-- name: insertKey
INSERT INTO api_key (name, kind, secret_hash, created_at, created_by) VALUES (?, ?, ?, ?, ?);

-- name: revokeKey
UPDATE api_key SET revoked_at = ?, revoked_by = ? WHERE name = ? AND revoked_at IS NULL;
