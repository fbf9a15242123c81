-- Alerts and their deliveries (module alerting). See SqlStatements.

-- name: insertAlert
INSERT INTO alert (id, raised_at, level, kind, sku_id, title, detail, dedupe_key, suppressed_count)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0);

-- name: insertDelivery
INSERT INTO alert_delivery (alert_id, channel, status, attempts, last_error, updated_at)
VALUES (?, ?, ?, 0, NULL, ?);

-- name: countSuppressed
UPDATE alert SET suppressed_count = suppressed_count + 1, last_suppressed_at = ? WHERE id = ?;

-- name: updateDelivery
UPDATE alert_delivery SET status = ?, attempts = ?, last_error = ?, updated_at = ?
WHERE alert_id = ? AND channel = ?;

-- The newest alerts (LIMIT ? of them), each with every delivery; one row per delivery.
-- name: recent
SELECT a.id, a.raised_at, a.level, a.kind, a.sku_id, a.title, a.detail, a.dedupe_key, a.suppressed_count,
       a.last_suppressed_at, d.channel, d.status, d.attempts, d.last_error, d.updated_at
FROM (SELECT id, raised_at, level, kind, sku_id, title, detail, dedupe_key, suppressed_count, last_suppressed_at
      FROM alert
      ORDER BY raised_at DESC, id DESC
      LIMIT ?) a
LEFT JOIN alert_delivery d ON d.alert_id = a.id
ORDER BY a.raised_at DESC, a.id DESC, d.channel;
