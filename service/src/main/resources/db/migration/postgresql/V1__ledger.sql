-- StockGuard ledger, PostgreSQL. The database is the source of truth in every tier.
-- Identifiers use the "C" collation: they are ASCII, and byte order is the order in which every
-- transaction locks SKUs (Java's String order), so the database and the service agree on it.

-- One row per SKU. bucket_count never changes after creation: an order's home bucket is derived
-- from it, so changing it would move orders between buckets.
CREATE TABLE sku (
    sku_id          VARCHAR(64)  COLLATE "C" PRIMARY KEY,
    bucket_count    INT          NOT NULL CHECK (bucket_count BETWEEN 1 AND 64),
    safety_stock    BIGINT       NOT NULL DEFAULT 0 CHECK (safety_stock >= 0),
    mode            VARCHAR(16)  NOT NULL DEFAULT 'NORMAL' CHECK (mode IN ('NORMAL', 'THROTTLED', 'FROZEN')),
    mode_reason     VARCHAR(500),
    mode_changed_by VARCHAR(200),
    mode_changed_at TIMESTAMPTZ,
    created_at      TIMESTAMPTZ  NOT NULL,
    updated_at      TIMESTAMPTZ  NOT NULL
);

-- The counters of one bucket. total = available + reserved + sold. The CHECKs are the last line
-- of I1: a change that would drive a counter negative fails instead of being stored.
-- mode repeats sku.mode on every bucket so that the reserving UPDATE checks it on the very row it
-- locks: a freeze that has committed is seen by every later reservation (I6), with no extra read.
CREATE TABLE stock_bucket (
    sku_id      VARCHAR(64) COLLATE "C" NOT NULL REFERENCES sku (sku_id),
    bucket      INT         NOT NULL CHECK (bucket >= 0),
    available   BIGINT      NOT NULL CHECK (available >= 0),
    reserved    BIGINT      NOT NULL CHECK (reserved >= 0),
    sold        BIGINT      NOT NULL CHECK (sold >= 0),
    mode        VARCHAR(16) NOT NULL DEFAULT 'NORMAL',
    -- Cumulative signed change of available applied here; with the hot store's journaled sum it
    -- gives the exact drift (DESIGN.md section 4).
    applied_sum BIGINT      NOT NULL DEFAULT 0,
    PRIMARY KEY (sku_id, bucket)
);

-- An order's reservation. A cancel of an unknown order leaves a tombstone (state CANCELLED, no
-- lines, empty fingerprint) so that a late reserve of the same order is refused (I7).
CREATE TABLE reservation (
    order_id     VARCHAR(64) COLLATE "C" PRIMARY KEY,
    state        VARCHAR(16) NOT NULL CHECK (state IN ('RESERVED', 'CONFIRMED', 'CANCELLED', 'EXPIRED')),
    fingerprint  VARCHAR(64) NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    expires_at   TIMESTAMPTZ,
    confirmed_at TIMESTAMPTZ,
    closed_at    TIMESTAMPTZ,
    trace_id     VARCHAR(32)
);
CREATE INDEX reservation_due ON reservation (expires_at) WHERE state = 'RESERVED';

-- A line lives in exactly one bucket: its home, or the home after a journaled transfer. No foreign
-- key to sku: its check would share-lock the SKU row inside every reservation, and an operator's
-- change that locks the SKU row and then its buckets would deadlock against it.
CREATE TABLE reservation_line (
    order_id VARCHAR(64) COLLATE "C" NOT NULL REFERENCES reservation (order_id),
    sku_id   VARCHAR(64) COLLATE "C" NOT NULL,
    qty      INT         NOT NULL CHECK (qty > 0),
    bucket   INT         NOT NULL,
    PRIMARY KEY (order_id, sku_id)
);

-- The journal: append-only. The unique (order_id, sku_id, op) is idempotency by business key
-- (I3); it ignores rows without an order id (stock operations).
CREATE TABLE stock_event (
    id              BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    event_id        VARCHAR(36) NOT NULL UNIQUE,
    sku_id          VARCHAR(64) COLLATE "C" NOT NULL,
    bucket          INT         NOT NULL,
    op              VARCHAR(16) NOT NULL,
    order_id        VARCHAR(64) COLLATE "C",
    request_id      VARCHAR(64) COLLATE "C",
    qty             BIGINT      NOT NULL,
    delta_available BIGINT      NOT NULL,
    delta_reserved  BIGINT      NOT NULL,
    delta_sold      BIGINT      NOT NULL,
    trace_id        VARCHAR(32),
    actor           VARCHAR(200),
    occurred_at     TIMESTAMPTZ NOT NULL,
    CONSTRAINT stock_event_order_op UNIQUE (order_id, sku_id, op)
);
CREATE INDEX stock_event_sku ON stock_event (sku_id, id);

-- Idempotency of stock operations (restock, adjust) that carry a caller's request id.
CREATE TABLE stock_request (
    request_id  VARCHAR(64) COLLATE "C" PRIMARY KEY,
    sku_id      VARCHAR(64) COLLATE "C" NOT NULL,
    op          VARCHAR(16) NOT NULL,
    fingerprint VARCHAR(64) NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL
);

-- Every manual action: who, when, why, before, after.
CREATE TABLE audit_log (
    id        BIGINT       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at        TIMESTAMPTZ  NOT NULL,
    actor     VARCHAR(200) NOT NULL,
    action    VARCHAR(40)  NOT NULL,
    target    VARCHAR(100) NOT NULL,
    reason    VARCHAR(500),
    before_state TEXT,
    after_state  TEXT,
    trace_id  VARCHAR(32)
);
CREATE INDEX audit_log_target ON audit_log (target, id);
CREATE INDEX audit_log_at ON audit_log (at);
