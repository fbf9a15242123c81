-- Dead letters of the full tier's database writer (module journal). See SqlStatements.

-- name: open
SELECT id, source, event_id, sku_id, payload, error, attempts, failed_at, replayed_at, replayed_by
FROM dead_letter
WHERE replayed_at IS NULL
ORDER BY id
LIMIT ?;

-- name: all
SELECT id, source, event_id, sku_id, payload, error, attempts, failed_at, replayed_at, replayed_by
FROM dead_letter
ORDER BY id DESC
LIMIT ?;

-- name: find
SELECT id, source, event_id, sku_id, payload, error, attempts, failed_at, replayed_at, replayed_by
FROM dead_letter
WHERE id = ?;

-- name: countOpen
SELECT COUNT(*) FROM dead_letter WHERE replayed_at IS NULL;

-- A replay is marked once: of two concurrent replays of one dead letter, only one marks it.
-- name: markReplayed
UPDATE dead_letter SET replayed_at = ?, replayed_by = ? WHERE id = ? AND replayed_at IS NULL;
