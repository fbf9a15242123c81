-- MariaDB's forms of the statements in ../stockguard.sql that differ.

-- name: analyze
ANALYZE TABLE sku, stock_bucket, stock_event;
