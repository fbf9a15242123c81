-- Reconciliation: the throttle a SKU sells under, and what the probe measured.

-- Reservations per second the whole cluster accepts for a THROTTLED SKU (0 when not throttled).
-- Kept here so that a SKU reloaded into the hot store keeps its limit.
ALTER TABLE sku ADD COLUMN throttle_rate INT NOT NULL DEFAULT 0 CHECK (throttle_rate >= 0);

-- One probe of one SKU: the exact drift R - D - (J - A) and what it led to. Old rows are deleted in
-- batches by the probe itself (stockguard.reconciliation.keep-readings).
CREATE TABLE drift_reading (
    id            BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    sku_id        VARCHAR(64)   NOT NULL,
    measured_at   DATETIME(6)   NOT NULL,
    kind          VARCHAR(20)   NOT NULL,
    level         VARCHAR(10)   NOT NULL,
    drift_units   BIGINT        NOT NULL,
    drift_percent DOUBLE        NOT NULL,
    total         BIGINT        NOT NULL,
    in_flight     BIGINT        NOT NULL,
    detail        VARCHAR(1000) NOT NULL,
    INDEX drift_reading_sku (sku_id, id),
    INDEX drift_reading_at (measured_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
