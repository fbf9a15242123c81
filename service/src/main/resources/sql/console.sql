-- Console statements (module console): read-only views of the database for people.

-- The overview's SKU list. Frozen and throttled SKUs come first (they are what someone is looking
-- for at 2 a.m.), then the busiest by reserved + sold. The filter is a LIKE pattern with '!' as
-- its escape character ('%' when there is no filter). This groups every bucket row of the
-- matching SKUs; the page size bounds what is returned, not what is scanned. The second parameter
-- is 1 to keep only sold-out SKUs (nothing available), 0 for all.
-- name: skus
SELECT s.sku_id, s.bucket_count, s.mode, s.mode_reason, s.mode_changed_by, s.mode_changed_at,
       SUM(b.available) AS available, SUM(b.reserved) AS reserved, SUM(b.sold) AS sold
FROM sku s
JOIN stock_bucket b ON b.sku_id = s.sku_id
WHERE s.sku_id LIKE ? ESCAPE '!'
GROUP BY s.sku_id, s.bucket_count, s.mode, s.mode_reason, s.mode_changed_by, s.mode_changed_at
HAVING (? = 0 OR SUM(b.available) = 0)
ORDER BY CASE WHEN s.mode = 'NORMAL' THEN 1 ELSE 0 END, SUM(b.reserved) + SUM(b.sold) DESC, s.sku_id
LIMIT ?;

-- name: skuCount
SELECT COUNT(*) FROM sku;

-- name: reservation
SELECT order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at, trace_id, extensions,
       customer_id
FROM reservation
WHERE order_id = ?;

-- name: lines
SELECT sku_id, qty, bucket FROM reservation_line WHERE order_id = ? ORDER BY sku_id;

-- name: pending
SELECT event_id, sku_id, bucket, op, qty, waiting_for, occurred_at, trace_id, epoch, bucket_seq
FROM pending_event
WHERE order_id = ?
ORDER BY occurred_at
LIMIT ?;

-- name: anomalies
SELECT id, at, kind, bucket, event_id, detail, resolved_at
FROM anomaly
WHERE sku_id = ?
ORDER BY id DESC
LIMIT ?;
