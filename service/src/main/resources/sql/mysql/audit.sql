-- Optional filters are written as "? IS NULL OR column = ?" so one statement serves every filter.

-- name: find
SELECT id, at, actor, action, target, reason, before_state, after_state, trace_id
FROM audit_log
WHERE (? IS NULL OR target = ?)
  AND (? IS NULL OR actor = ?)
  AND (? IS NULL OR action = ?)
  AND (? IS NULL OR at >= ?)
  AND (? IS NULL OR at < ?)
ORDER BY id DESC
LIMIT ?;
