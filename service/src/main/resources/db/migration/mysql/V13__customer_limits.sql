-- Per-customer purchase limits; see the PostgreSQL migration for why each column and table exists.
ALTER TABLE sku ADD COLUMN limit_per_customer INT,
    ADD COLUMN low_stock_threshold BIGINT,
    ADD CONSTRAINT sku_limit_per_customer CHECK (limit_per_customer > 0),
    ADD CONSTRAINT sku_low_stock_threshold CHECK (low_stock_threshold >= 0);
ALTER TABLE reservation ADD COLUMN customer_id VARCHAR(64);
ALTER TABLE stock_event ADD COLUMN customer_id VARCHAR(64);
ALTER TABLE pending_event ADD COLUMN customer_id VARCHAR(64);

CREATE TABLE customer_hold (
    sku_id      VARCHAR(64) NOT NULL,
    customer_id VARCHAR(64) NOT NULL,
    units       BIGINT      NOT NULL,
    PRIMARY KEY (sku_id, customer_id),
    CONSTRAINT customer_hold_units CHECK (units >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
