-- PostgreSQL forms of the access module's statements that differ between the databases.

-- name: insertThrottleIfAbsent
INSERT INTO login_throttle (name, failures, window_started_at, throttled_until)
VALUES (?, 0, ?, NULL)
ON CONFLICT (name) DO NOTHING;

-- Console sessions that expired, the longest expired first (parameters: now in epoch milliseconds,
-- batch size); their attributes go by cascade. Rows locked elsewhere (another instance's sweep, a
-- request touching its session) are skipped, not waited for; a later sweep gets them.
-- name: sweepConsoleSessions
DELETE FROM console_session
WHERE primary_id IN (SELECT primary_id FROM console_session WHERE expiry_time < ? ORDER BY expiry_time LIMIT ?
                     FOR UPDATE SKIP LOCKED);
