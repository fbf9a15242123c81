-- MySQL / MariaDB forms of the insert-if-absent statements. INSERT IGNORE also waits for a
-- concurrent insert of the same key. It would downgrade other errors to warnings too, so it is
-- used only on tables without foreign keys, with values validated before they get here.

-- name: insertReservation
INSERT IGNORE INTO reservation (order_id, state, fingerprint, created_at, expires_at, confirmed_at, closed_at,
                                trace_id, customer_id)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?);

-- name: insertSku
INSERT IGNORE INTO sku (sku_id, bucket_count, safety_stock, mode, created_at, updated_at)
VALUES (?, ?, ?, 'NORMAL', ?, ?);

-- name: insertStockRequest
INSERT IGNORE INTO stock_request (request_id, sku_id, op, fingerprint, created_at)
VALUES (?, ?, ?, ?, ?);

-- The SKUs of a batch of hot-store events, locked until the batch commits: appliers of the same SKU
-- (the journal writer, an outbox drain, a group commit) run one after the other instead of racing
-- on the same reservation rows, and an ownership change and the batch serialise on it. Also reads
-- who owns the SKU: the database applies only its owner's changes.
-- name: hotOwners
SELECT sku_id, owner, hot_epoch, owner_since FROM sku WHERE sku_id IN (:skuIds) ORDER BY sku_id FOR UPDATE;

-- The database path holds a SKU's ownership still while it changes the SKU.
-- name: shareOwnership
SELECT owner, hot_epoch, owner_since FROM sku WHERE sku_id = ? LOCK IN SHARE MODE;

-- After a bulk import: refresh the optimizer's statistics of the tables it grew.
-- name: analyzeCatalogue
ANALYZE TABLE sku, stock_bucket;

-- name: insertCustomerHold
INSERT IGNORE INTO customer_hold (sku_id, customer_id, units) VALUES (?, ?, 0);
