-- MySQL / MariaDB forms of the insert-if-absent statements (see ../stock_levels.sql). INSERT IGNORE
-- is safe here: stock_level has no foreign keys and its values are checked before they are sent.

-- name: insertLevelIfAbsent
INSERT IGNORE INTO stock_level (sku_id, level, available, changed_at) VALUES (?, ?, ?, ?);
