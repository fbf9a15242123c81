-- PostgreSQL forms of the insert-if-absent statements (see ../stock_levels.sql).

-- name: insertLevelIfAbsent
INSERT INTO stock_level (sku_id, level, available, changed_at) VALUES (?, ?, ?, ?)
ON CONFLICT (sku_id) DO NOTHING;
