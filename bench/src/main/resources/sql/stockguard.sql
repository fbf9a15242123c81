-- Bulk load of StockGuard's own tables for a benchmark run: the same rows the service writes when
-- a SKU is created (SKU, buckets, one ADJUST event per bucket), without one transaction per SKU.

-- name: insertSku
INSERT INTO sku (sku_id, bucket_count, safety_stock, mode, created_at, updated_at)
VALUES (?, ?, 0, 'NORMAL', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP);

-- name: insertBucket
INSERT INTO stock_bucket (sku_id, bucket, available, reserved, sold, mode, applied_sum)
VALUES (?, ?, ?, 0, 0, 'NORMAL', ?);

-- name: insertEvent
INSERT INTO stock_event (event_id, sku_id, bucket, op, qty, delta_available, delta_reserved, delta_sold, actor,
                         occurred_at)
VALUES (?, ?, ?, 'ADJUST', ?, ?, 0, 0, 'bench', CURRENT_TIMESTAMP);

-- name: remaining
SELECT sku_id, SUM(available) FROM stock_bucket GROUP BY sku_id;

-- Empties the service's tables between runs, so one running service serves every run of a
-- contender (restarting it would throw away its warmed-up code).
-- name: reset
TRUNCATE stock_event, reservation_line, reservation, stock_bucket, sku, stock_request, audit_log, anomaly,
    pending_event;

-- Orders the database holds stock for: every acknowledged reservation must be among them.
-- name: heldOrders
SELECT order_id FROM reservation WHERE state IN ('RESERVED', 'CONFIRMED');

-- Fresh statistics after a bulk load, as a production database has: without them the planner
-- may keep plans made for empty tables while a run fills them.
-- name: analyze
ANALYZE sku, stock_bucket, stock_event;
