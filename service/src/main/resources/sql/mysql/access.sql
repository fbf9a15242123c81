-- MySQL / MariaDB forms of the access module's statements that differ between the databases.

-- INSERT IGNORE is safe here: login_throttle has no foreign keys and the values are validated
-- before they get here.
-- name: insertThrottleIfAbsent
INSERT IGNORE INTO login_throttle (name, failures, window_started_at, throttled_until)
VALUES (?, 0, ?, NULL);

-- Console sessions that expired, the longest expired first (parameters: now in epoch milliseconds,
-- batch size); their attributes go by cascade. MySQL refuses LIMIT inside an IN subquery, but takes
-- ORDER BY and LIMIT on a single-table DELETE. The table name is in capitals (see V9).
-- name: sweepConsoleSessions
DELETE FROM CONSOLE_SESSION WHERE expiry_time < ? ORDER BY expiry_time LIMIT ?;
