-- Audit statements (module audit).

-- name: insert
INSERT INTO audit_log (at, actor, action, target, reason, before_state, after_state, trace_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?);

