-- PostgreSQL forms of the insert-if-absent statements. ON CONFLICT DO NOTHING waits for a
-- concurrent insert of the same key to finish, so of two racing retries exactly one inserts.

-- name: insertReservation
INSERT INTO reservation (order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at, trace_id,
                         customer_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (order_id) DO NOTHING;

-- name: insertSku
INSERT INTO sku (sku_id, bucket_count, safety_stock, mode, created_at, updated_at)
VALUES (?, ?, ?, 'NORMAL', ?, ?)
ON CONFLICT (sku_id) DO NOTHING;

-- name: insertStockRequest
INSERT INTO stock_request (request_id, sku_id, op, fingerprint, created_at)
VALUES (?, ?, ?, ?, ?)
ON CONFLICT (request_id) DO NOTHING;

-- The SKUs of a batch of hot-store events, locked until the batch commits: appliers of the same SKU
-- (the journal writer, an outbox drain, a group commit) run one after the other instead of racing
-- on the same reservation rows, and an ownership change and the batch serialise on it. Also reads
-- who owns the SKU: the database applies only its owner's changes.
-- name: hotOwners
SELECT sku_id, owner, hot_epoch, owner_since FROM sku WHERE sku_id IN (:skuIds) ORDER BY sku_id FOR UPDATE;

-- The database path holds a SKU's ownership still while it changes the SKU.
-- name: shareOwnership
SELECT owner, hot_epoch, owner_since FROM sku WHERE sku_id = ? FOR SHARE;

-- After a bulk import: the planner's statistics still describe the catalogue before it, and until
-- autovacuum catches up a page of the export (or any join over SKUs) may scan whole tables.
-- name: analyzeCatalogue
ANALYZE sku, stock_bucket;

-- name: insertCustomerHold
INSERT INTO customer_hold (sku_id, customer_id, units) VALUES (?, ?, 0)
ON CONFLICT (sku_id, customer_id) DO NOTHING;

-- The rows of a committed batch of reservations in one statement (BatchWrites): the buckets'
-- net changes (checked under the batch's locks; a bucket not returned would have gone negative),
-- the orders and their lines. Each argument is an array, one element per row; the statement's
-- parts all run once and to completion whether or not the final SELECT reads them.
-- name: writeBatch
WITH changed AS (
    UPDATE stock_bucket b
    SET available = b.available + c.available, reserved = b.reserved + c.reserved, sold = b.sold + c.sold,
        applied_sum = b.applied_sum + c.available
    FROM unnest(CAST(? AS text[]), CAST(? AS int[]), CAST(? AS bigint[]), CAST(? AS bigint[]),
                CAST(? AS bigint[])) AS c (sku_id, bucket, available, reserved, sold)
    WHERE b.sku_id = c.sku_id COLLATE "C" AND b.bucket = c.bucket
      AND b.available + c.available >= 0 AND b.reserved + c.reserved >= 0 AND b.sold + c.sold >= 0
    RETURNING b.sku_id, b.bucket
), orders AS (
    INSERT INTO reservation (order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at,
                             trace_id, customer_id)
    SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS text[]), CAST(? AS timestamptz[]),
                         CAST(? AS timestamptz[]), CAST(? AS timestamptz[]), CAST(? AS timestamptz[]),
                         CAST(? AS text[]), CAST(? AS text[]))
), order_lines AS (
    INSERT INTO reservation_line (order_id, sku_id, qty, bucket)
    SELECT * FROM unnest(CAST(? AS text[]), CAST(? AS text[]), CAST(? AS int[]), CAST(? AS int[]))
)
SELECT sku_id, bucket FROM changed;

-- Who already holds each hot-store stamp, one index probe per stamp: the stamps come as four
-- arrays, one element per stamp (the generic form bounds each column by a list, which matches every
-- combination of them: on a batch of 50 SKUs after a pause, 20,400 rows read for 500 stamps in 21-49
-- ms, where this join reads the 500 in 6-12 ms on PostgreSQL 18; a row-value IN list of the 500 took
-- 140-330 ms to plan).
-- name: stampOwners
SELECT e.sku_id, e.bucket, e.epoch, e.bucket_seq, e.event_id
FROM unnest(CAST(:stampSkus AS text[]), CAST(:stampBuckets AS int[]), CAST(:stampEpochs AS bigint[]),
            CAST(:stampSequences AS bigint[])) AS s (sku_id, bucket, epoch, bucket_seq)
JOIN stock_event e ON e.sku_id = s.sku_id COLLATE "C" AND e.bucket = s.bucket AND e.epoch = s.epoch
                   AND e.bucket_seq = s.bucket_seq;
