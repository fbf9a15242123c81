-- Per-customer purchase limits. A SKU may limit how many units one customer holds and has bought
-- (limit_per_customer, NULL: no limit); a reservation may name its customer. customer_hold counts,
-- per SKU and customer, the units of that customer's reservations that are RESERVED or CONFIRMED:
-- the database path checks and moves it in the reservation's transaction, with one conditional
-- UPDATE of this row, so two orders of one customer cannot both pass the limit. It counts every
-- named customer's reservations, limited SKU or not, so a limit set during a sale is right at once.
-- On the Redis tiers the hot store keeps the same count; the journal applier keeps this one, so a
-- fall-back to the database and a reload of the hot store start from it.
ALTER TABLE sku ADD COLUMN limit_per_customer INT CHECK (limit_per_customer > 0);
ALTER TABLE sku ADD COLUMN low_stock_threshold BIGINT CHECK (low_stock_threshold >= 0);
ALTER TABLE reservation ADD COLUMN customer_id VARCHAR(64) COLLATE "C";
-- Set on RESERVE events only (like fingerprint): what the database needs to count a hot store's
-- reservation against its customer.
ALTER TABLE stock_event ADD COLUMN customer_id VARCHAR(64) COLLATE "C";
ALTER TABLE pending_event ADD COLUMN customer_id VARCHAR(64) COLLATE "C";

CREATE TABLE customer_hold (
    sku_id      VARCHAR(64) COLLATE "C" NOT NULL,
    customer_id VARCHAR(64) COLLATE "C" NOT NULL,
    units       BIGINT      NOT NULL CHECK (units >= 0),
    PRIMARY KEY (sku_id, customer_id)
);
