-- MySQL / MariaDB form of the insert-if-absent statement of the access module. INSERT IGNORE is
-- safe here: the table has no foreign keys and the values are validated before they get here.

-- name: insertThrottleIfAbsent
INSERT IGNORE INTO login_throttle (name, failures, window_started_at, throttled_until)
VALUES (?, 0, ?, NULL);
