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
