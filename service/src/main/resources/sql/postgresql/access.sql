-- PostgreSQL form of the insert-if-absent statement of the access module.

-- name: insertThrottleIfAbsent
INSERT INTO login_throttle (name, failures, window_started_at, throttled_until)
VALUES (?, 0, ?, NULL)
ON CONFLICT (name) DO NOTHING;
