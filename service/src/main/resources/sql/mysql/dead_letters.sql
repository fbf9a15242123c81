-- name: insert
INSERT IGNORE INTO dead_letter (source, event_id, sku_id, payload, error, attempts, failed_at)
VALUES (?, ?, ?, ?, ?, ?, ?);
