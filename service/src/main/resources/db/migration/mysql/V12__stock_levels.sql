-- Stock levels for downstream systems (module stocklevel). stock_level is the level last reported
-- for each SKU: a change of level is reported once, by the instance that moves this row.
CREATE TABLE stock_level (
    sku_id     VARCHAR(64) NOT NULL PRIMARY KEY,
    level      VARCHAR(16) NOT NULL,
    available  BIGINT      NOT NULL,
    changed_at DATETIME(6) NOT NULL,
    CONSTRAINT stock_level_level CHECK (level IN ('IN_STOCK', 'LOW_STOCK', 'SOLD_OUT'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- How far the watcher has read the journal (one row).
CREATE TABLE stock_level_watch (
    id            INT    NOT NULL PRIMARY KEY,
    last_event_id BIGINT NOT NULL
) ENGINE = InnoDB;

-- The events, in the order they were made; kept as the record of what subscribers were told.
CREATE TABLE stock_level_event (
    id          BIGINT      NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id    VARCHAR(36) NOT NULL UNIQUE,
    sku_id      VARCHAR(64) NOT NULL,
    kind        VARCHAR(16) NOT NULL,
    available   BIGINT      NOT NULL,
    total       BIGINT      NOT NULL,
    occurred_at DATETIME(6) NOT NULL,
    trace_id    VARCHAR(32),
    INDEX stock_level_event_sku (sku_id, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

-- One row per event and webhook: at-least-once delivery, retried with backoff until it is taken
-- or given up.
CREATE TABLE stock_level_delivery (
    event_id        VARCHAR(36)  NOT NULL,
    webhook         VARCHAR(64)  NOT NULL,
    state           VARCHAR(16)  NOT NULL,
    attempts        INT          NOT NULL DEFAULT 0,
    next_attempt_at DATETIME(6)  NOT NULL,
    finished_at     DATETIME(6),
    last_error      VARCHAR(500),
    PRIMARY KEY (event_id, webhook),
    INDEX stock_level_delivery_due (state, next_attempt_at),
    CONSTRAINT stock_level_delivery_state CHECK (state IN ('PENDING', 'DELIVERED', 'GAVE_UP'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
