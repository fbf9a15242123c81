-- The Redis tiers; see the PostgreSQL migration for why each column exists.

ALTER TABLE stock_event
    ADD COLUMN epoch       BIGINT,
    ADD COLUMN bucket_seq  BIGINT,
    ADD COLUMN fingerprint VARCHAR(64),
    ADD COLUMN expires_at  DATETIME(6);
CREATE UNIQUE INDEX stock_event_bucket_seq ON stock_event (sku_id, bucket, epoch, bucket_seq);

ALTER TABLE stock_bucket
    ADD COLUMN applied_epoch BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN applied_seq   BIGINT NOT NULL DEFAULT 0;

ALTER TABLE sku
    ADD COLUMN hot_epoch BIGINT  NOT NULL DEFAULT 0,
    ADD COLUMN hot_valid BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN hot_invalid_since DATETIME(6);

CREATE TABLE anomaly (
    id          BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    at          DATETIME(6)   NOT NULL,
    kind        VARCHAR(40)   NOT NULL,
    sku_id      VARCHAR(64),
    bucket      INT,
    event_id    VARCHAR(36),
    detail      VARCHAR(1000) NOT NULL,
    resolved_at DATETIME(6),
    INDEX anomaly_sku (sku_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE pending_event (
    event_id        VARCHAR(36) NOT NULL PRIMARY KEY,
    order_id        VARCHAR(64),
    sku_id          VARCHAR(64) NOT NULL,
    bucket          INT         NOT NULL,
    op              VARCHAR(16) NOT NULL,
    qty             BIGINT      NOT NULL,
    delta_available BIGINT      NOT NULL,
    delta_reserved  BIGINT      NOT NULL,
    delta_sold      BIGINT      NOT NULL,
    trace_id        VARCHAR(32),
    actor           VARCHAR(200),
    occurred_at     DATETIME(6) NOT NULL,
    epoch           BIGINT,
    bucket_seq      BIGINT,
    request_id      VARCHAR(64),
    fingerprint     VARCHAR(64),
    expires_at      DATETIME(6),
    hot_available   BIGINT,
    hot_journaled   BIGINT,
    waiting_for     VARCHAR(16) NOT NULL,
    INDEX pending_event_order (order_id, sku_id),
    INDEX pending_event_bucket (sku_id, waiting_for)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE INDEX reservation_line_sku ON reservation_line (sku_id);
