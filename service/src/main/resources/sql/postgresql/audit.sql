-- Optional filters are written as "? IS NULL OR column = ?" so one statement serves every filter.
-- PostgreSQL must be told the type of a parameter that is only compared with NULL.

-- name: find
SELECT id, at, actor, action, target, reason, before_state, after_state, trace_id
FROM audit_log
WHERE (CAST(? AS VARCHAR) IS NULL OR target = ?)
  AND (CAST(? AS VARCHAR) IS NULL OR actor = ?)
  AND (CAST(? AS VARCHAR) IS NULL OR action = ?)
  AND (CAST(? AS TIMESTAMPTZ) IS NULL OR at >= ?)
  AND (CAST(? AS TIMESTAMPTZ) IS NULL OR at < ?)
ORDER BY id DESC
LIMIT ?;
