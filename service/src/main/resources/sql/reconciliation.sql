-- Reconciliation statements (module reconciliation). Each read is one statement, so it sees one
-- consistent state of the database.

-- A SKU's mode, hot-store ownership and buckets with applied sums and stamps.
-- name: state
SELECT s.mode, s.mode_changed_by, s.safety_stock, s.hot_epoch, s.owner,
       b.bucket, b.available, b.reserved, b.sold, b.applied_sum, b.applied_epoch, b.applied_seq
FROM sku s JOIN stock_bucket b ON b.sku_id = s.sku_id
WHERE s.sku_id = ?
ORDER BY b.bucket;

-- Counters minus the journal's sums, per bucket: all zero when the ledger is sound.
-- name: ledgerMismatches
SELECT b.bucket,
       b.available - COALESCE(e.da, 0) AS available,
       b.reserved - COALESCE(e.dr, 0) AS reserved,
       b.sold - COALESCE(e.ds, 0) AS sold
FROM stock_bucket b
LEFT JOIN (SELECT bucket, SUM(delta_available) AS da, SUM(delta_reserved) AS dr, SUM(delta_sold) AS ds
           FROM stock_event WHERE sku_id = ? GROUP BY bucket) e ON e.bucket = b.bucket
WHERE b.sku_id = ?
ORDER BY b.bucket;

-- name: openAnomalies
SELECT COUNT(*) FROM anomaly WHERE sku_id = ? AND resolved_at IS NULL;

-- name: lastEventId
SELECT COALESCE(MAX(id), 0) FROM stock_event;

-- name: busiest
SELECT sku_id, COUNT(*) AS events
FROM stock_event
WHERE id > ? AND id <= ?
GROUP BY sku_id
ORDER BY events DESC, sku_id
LIMIT ?;

-- name: firstPage
SELECT sku_id FROM sku ORDER BY sku_id LIMIT ?;

-- name: page
SELECT sku_id FROM sku WHERE sku_id > ? ORDER BY sku_id LIMIT ?;

-- name: addReading
INSERT INTO drift_reading (sku_id, measured_at, kind, level, drift_units, drift_percent, total, in_flight, detail)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: newest
SELECT sku_id, measured_at, kind, level, drift_units, drift_percent, total, in_flight, detail
FROM drift_reading
WHERE sku_id = ?
ORDER BY id DESC
LIMIT ?;

-- name: newestWrong
SELECT sku_id, measured_at, kind, level, drift_units, drift_percent, total, in_flight, detail
FROM drift_reading
WHERE kind IN ('DRIFT', 'REGRESSION', 'LEDGER_MISMATCH')
ORDER BY id DESC
LIMIT ?;
