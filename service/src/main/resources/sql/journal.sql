-- Journal statements (module journal). Named statements; see SqlStatements.

-- name: append
INSERT INTO stock_event (event_id, sku_id, bucket, op, order_id, request_id, qty,
                         delta_available, delta_reserved, delta_sold, trace_id, actor, occurred_at,
                         epoch, bucket_seq, fingerprint, expires_at, customer_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: forOrder
SELECT event_id, sku_id, bucket, op, order_id, request_id, qty, delta_available, delta_reserved,
       delta_sold, trace_id, actor, occurred_at, epoch, bucket_seq, fingerprint, expires_at, customer_id
FROM stock_event
WHERE order_id = ?
ORDER BY id
LIMIT ?;

-- name: tail
SELECT event_id, sku_id, bucket, op, order_id, request_id, qty, delta_available, delta_reserved,
       delta_sold, trace_id, actor, occurred_at, epoch, bucket_seq, fingerprint, expires_at, customer_id
FROM stock_event
WHERE sku_id = ?
ORDER BY id DESC
LIMIT ?;

-- name: sums
SELECT bucket, SUM(delta_available) AS available, SUM(delta_reserved) AS reserved,
       SUM(delta_sold) AS sold, COUNT(*) AS events
FROM stock_event
WHERE sku_id = ?
GROUP BY bucket;

-- The appended journal (table journal_entry; see its migration for why numbers are taken under a lock).
-- Takes the next numbers, and the row's lock until the append commits.
-- name: takeNumbers
UPDATE journal_mark SET seq = seq + :count WHERE name = 'appended';

-- name: lastNumber
SELECT seq FROM journal_mark WHERE name = 'appended';

-- name: appendEntry
INSERT INTO journal_entry (events, seq) VALUES (?, ?);

-- An entry written before the fence had answered, and changed by it (PostgreSQL's appendEntries).
-- name: rewriteEntry
UPDATE journal_entry SET events = ? WHERE seq = ?;

-- Taken by one applier at a time; another finds it taken and leaves the entries to it.
-- name: claimApplying
SELECT seq FROM journal_mark WHERE name = 'applied' FOR UPDATE SKIP LOCKED;

-- name: entriesAfter
SELECT seq, events FROM journal_entry WHERE seq > ? ORDER BY seq LIMIT ?;

-- name: markApplied
UPDATE journal_mark SET seq = ? WHERE name = 'applied';

-- The entries just applied: those after the mark this transaction claimed, up to the new one (every
-- entry at or below the claimed mark went in the transaction that set it). Bounded below, the scan
-- starts at the first live entry; bounded above alone, it stepped over every entry deleted since
-- the last vacuum first (3.4 ms a call, the standard tier's costliest statement at 64 connections).
-- name: deleteApplied
DELETE FROM journal_entry WHERE seq > ? AND seq <= ?;

-- name: marks
SELECT name, seq FROM journal_mark;
