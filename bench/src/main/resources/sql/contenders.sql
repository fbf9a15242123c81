-- Tables and statements of the database contenders: each technique as its users write it.
-- Deliberately no CHECK (stock >= 0): the naive techniques are measured as they are deployed.

-- name: dropStock
DROP TABLE IF EXISTS bench_stock;

-- name: createStock
CREATE TABLE bench_stock (
    sku_id  VARCHAR(64) NOT NULL PRIMARY KEY,
    stock   BIGINT      NOT NULL,
    version BIGINT      NOT NULL
);

-- name: dropBucket
DROP TABLE IF EXISTS bench_bucket;

-- name: createBucket
CREATE TABLE bench_bucket (
    sku_id VARCHAR(64) NOT NULL,
    bucket INT         NOT NULL,
    stock  BIGINT      NOT NULL,
    PRIMARY KEY (sku_id, bucket)
);

-- name: insertStock
INSERT INTO bench_stock (sku_id, stock, version) VALUES (?, ?, 0);

-- name: insertBucket
INSERT INTO bench_bucket (sku_id, bucket, stock) VALUES (?, ?, ?);

-- name: readStock
SELECT stock FROM bench_stock WHERE sku_id = ?;

-- name: remainingStock
SELECT sku_id, stock FROM bench_stock;

-- name: remainingBuckets
SELECT sku_id, SUM(stock) FROM bench_bucket GROUP BY sku_id;

-- Naive read-then-write: the value read is written back minus the quantity.
-- name: naiveWrite
UPDATE bench_stock SET stock = ? WHERE sku_id = ?;

-- name: lockStock
SELECT stock FROM bench_stock WHERE sku_id = ? FOR UPDATE;

-- name: takeStock
UPDATE bench_stock SET stock = stock - ? WHERE sku_id = ?;

-- name: readVersioned
SELECT stock, version FROM bench_stock WHERE sku_id = ?;

-- name: takeIfVersion
UPDATE bench_stock SET stock = stock - ?, version = version + 1 WHERE sku_id = ? AND version = ?;

-- The plainest fix the post-mortem names: check and change in one statement.
-- name: takeIfEnough
UPDATE bench_stock SET stock = stock - ? WHERE sku_id = ? AND stock >= ?;

-- name: takeFromBucketIfEnough
UPDATE bench_bucket SET stock = stock - ? WHERE sku_id = ? AND bucket = ? AND stock >= ?;

-- name: readBuckets
SELECT SUM(stock) FROM bench_bucket WHERE sku_id = ?;
