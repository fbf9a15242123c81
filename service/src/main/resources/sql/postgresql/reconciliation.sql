-- name: prune
DELETE FROM drift_reading WHERE id IN (SELECT id FROM drift_reading WHERE measured_at < ? ORDER BY id LIMIT ?);
