-- Stock levels for downstream systems (module stocklevel). stock_level is the level last reported
-- for each SKU: a change of level is reported once, by the instance that moves this row.
CREATE TABLE stock_level (
    sku_id     VARCHAR(64) COLLATE "C" PRIMARY KEY,
    level      VARCHAR(16) NOT NULL CHECK (level IN ('IN_STOCK', 'LOW_STOCK', 'SOLD_OUT')),
    available  BIGINT      NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL
);

-- How far the watcher has read the journal (one row).
CREATE TABLE stock_level_watch (
    id            INT    PRIMARY KEY CHECK (id = 1),
    last_event_id BIGINT NOT NULL
);

-- The events, in the order they were made; kept as the record of what subscribers were told.
CREATE TABLE stock_level_event (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id    VARCHAR(36) NOT NULL UNIQUE,
    sku_id      VARCHAR(64) COLLATE "C" NOT NULL,
    kind        VARCHAR(16) NOT NULL,
    available   BIGINT      NOT NULL,
    total       BIGINT      NOT NULL,
    occurred_at TIMESTAMPTZ NOT NULL,
    trace_id    VARCHAR(32)
);
CREATE INDEX stock_level_event_sku ON stock_level_event (sku_id, id);

-- One row per event and webhook: at-least-once delivery, retried with backoff until it is taken
-- or given up.
CREATE TABLE stock_level_delivery (
    event_id        VARCHAR(36)  NOT NULL,
    webhook         VARCHAR(64)  NOT NULL,
    state           VARCHAR(16)  NOT NULL CHECK (state IN ('PENDING', 'DELIVERED', 'GAVE_UP')),
    attempts        INT          NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ  NOT NULL,
    finished_at     TIMESTAMPTZ,
    last_error      VARCHAR(500),
    PRIMARY KEY (event_id, webhook)
);
CREATE INDEX stock_level_delivery_due ON stock_level_delivery (state, next_attempt_at);
