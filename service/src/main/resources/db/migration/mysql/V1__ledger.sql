-- StockGuard ledger, MySQL 8 / MariaDB 10.11+. Same model as the PostgreSQL migration; see the
-- comments there for why each table and column exists. Timestamps are UTC, microsecond precision.
-- Binary collation: identifiers compare exactly as in PostgreSQL ("Sku-1" is not "sku-1").

CREATE TABLE sku (
    sku_id          VARCHAR(64)  NOT NULL PRIMARY KEY,
    bucket_count    INT          NOT NULL,
    safety_stock    BIGINT       NOT NULL DEFAULT 0,
    mode            VARCHAR(16)  NOT NULL DEFAULT 'NORMAL',
    mode_reason     VARCHAR(500),
    mode_changed_by VARCHAR(200),
    mode_changed_at DATETIME(6),
    created_at      DATETIME(6)  NOT NULL,
    updated_at      DATETIME(6)  NOT NULL,
    CONSTRAINT sku_bucket_count CHECK (bucket_count BETWEEN 1 AND 64),
    CONSTRAINT sku_safety_stock CHECK (safety_stock >= 0),
    CONSTRAINT sku_mode CHECK (mode IN ('NORMAL', 'THROTTLED', 'FROZEN'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE stock_bucket (
    sku_id      VARCHAR(64) NOT NULL,
    bucket      INT         NOT NULL,
    available   BIGINT      NOT NULL,
    reserved    BIGINT      NOT NULL,
    sold        BIGINT      NOT NULL,
    mode        VARCHAR(16) NOT NULL DEFAULT 'NORMAL',
    applied_sum BIGINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (sku_id, bucket),
    CONSTRAINT stock_bucket_sku FOREIGN KEY (sku_id) REFERENCES sku (sku_id),
    CONSTRAINT stock_bucket_available CHECK (available >= 0),
    CONSTRAINT stock_bucket_reserved CHECK (reserved >= 0),
    CONSTRAINT stock_bucket_sold CHECK (sold >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE reservation (
    order_id     VARCHAR(64) NOT NULL PRIMARY KEY,
    state        VARCHAR(16) NOT NULL,
    fingerprint  VARCHAR(64) NOT NULL,
    created_at   DATETIME(6) NOT NULL,
    expires_at   DATETIME(6),
    confirmed_at DATETIME(6),
    closed_at    DATETIME(6),
    trace_id     VARCHAR(32),
    CONSTRAINT reservation_state CHECK (state IN ('RESERVED', 'CONFIRMED', 'CANCELLED', 'EXPIRED')),
    INDEX reservation_due (state, expires_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE reservation_line (
    order_id VARCHAR(64) NOT NULL,
    sku_id   VARCHAR(64) NOT NULL,
    qty      INT         NOT NULL,
    bucket   INT         NOT NULL,
    PRIMARY KEY (order_id, sku_id),
    -- No foreign key to sku: see the PostgreSQL migration.
    CONSTRAINT reservation_line_order FOREIGN KEY (order_id) REFERENCES reservation (order_id),
    CONSTRAINT reservation_line_qty CHECK (qty > 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE stock_event (
    id              BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id        VARCHAR(36) NOT NULL,
    sku_id          VARCHAR(64) NOT NULL,
    bucket          INT         NOT NULL,
    op              VARCHAR(16) NOT NULL,
    order_id        VARCHAR(64),
    request_id      VARCHAR(64),
    qty             BIGINT      NOT NULL,
    delta_available BIGINT      NOT NULL,
    delta_reserved  BIGINT      NOT NULL,
    delta_sold      BIGINT      NOT NULL,
    trace_id        VARCHAR(32),
    actor           VARCHAR(200),
    occurred_at     DATETIME(6) NOT NULL,
    UNIQUE KEY stock_event_event_id (event_id),
    UNIQUE KEY stock_event_order_op (order_id, sku_id, op),
    INDEX stock_event_sku (sku_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE stock_request (
    request_id  VARCHAR(64) NOT NULL PRIMARY KEY,
    sku_id      VARCHAR(64) NOT NULL,
    op          VARCHAR(16) NOT NULL,
    fingerprint VARCHAR(64) NOT NULL,
    created_at  DATETIME(6) NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE audit_log (
    id       BIGINT       NOT NULL AUTO_INCREMENT PRIMARY KEY,
    at       DATETIME(6)  NOT NULL,
    actor    VARCHAR(200) NOT NULL,
    action   VARCHAR(40)  NOT NULL,
    target   VARCHAR(100) NOT NULL,
    reason   VARCHAR(500),
    before_state TEXT,
    after_state  TEXT,
    trace_id VARCHAR(32),
    INDEX audit_log_target (target, id),
    INDEX audit_log_at (at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
