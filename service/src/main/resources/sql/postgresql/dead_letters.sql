-- name: insert
INSERT INTO dead_letter (source, event_id, sku_id, payload, error, attempts, failed_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (source) DO NOTHING;
