-- The Redis tiers: the hot store journals every change with its bucket's epoch and sequence, and
-- the database applies those events exactly once.

-- epoch and bucket_seq stamp an event with its place in the hot bucket's history. Two different
-- events with the same stamp mean the hot store lost writes and reissued a sequence (I5).
-- fingerprint and expires_at carry a reservation's terms, so the database can build the
-- reservation row from the event alone.
ALTER TABLE stock_event
    ADD COLUMN epoch       BIGINT,
    ADD COLUMN bucket_seq  BIGINT,
    ADD COLUMN fingerprint VARCHAR(64),
    ADD COLUMN expires_at  TIMESTAMPTZ;
CREATE UNIQUE INDEX stock_event_bucket_seq ON stock_event (sku_id, bucket, epoch, bucket_seq);

-- The highest hot-store stamp applied to each bucket: a hot store behind it has lost writes.
ALTER TABLE stock_bucket
    ADD COLUMN applied_epoch BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN applied_seq   BIGINT NOT NULL DEFAULT 0;

-- hot_epoch is the epoch the hot store was last loaded with; hot_valid is false while the hot
-- store must not serve the SKU (never loaded, or the database path sold it during a fallback).
ALTER TABLE sku
    ADD COLUMN hot_epoch BIGINT  NOT NULL DEFAULT 0,
    ADD COLUMN hot_valid BOOLEAN NOT NULL DEFAULT FALSE,
    ADD COLUMN hot_invalid_since TIMESTAMPTZ;

-- What the database refused to apply, and why: never silently applied, never silently dropped.
CREATE TABLE anomaly (
    id          BIGINT       GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at          TIMESTAMPTZ  NOT NULL,
    kind        VARCHAR(40)  NOT NULL,
    sku_id      VARCHAR(64)  COLLATE "C",
    bucket      INT,
    event_id    VARCHAR(36),
    detail      VARCHAR(1000) NOT NULL,
    resolved_at TIMESTAMPTZ
);
CREATE INDEX anomaly_sku ON anomaly (sku_id, id);

-- A change journaled but not yet applied, waiting (waiting_for) for:
--   ORDER   the reservation it undoes: a cancel or expiry that overtook its reserve (I7);
--   BUCKET  changes that precede it in its hot bucket: it does not fit the database's counters yet,
--           but the hot store's R - J equals the database's D - A, so nothing drifted, something is
--           still in flight. It is applied as soon as it fits.
-- Durable here, it counts as journaled (I2); it is applied exactly once.
CREATE TABLE pending_event (
    event_id        VARCHAR(36) PRIMARY KEY,
    order_id        VARCHAR(64) COLLATE "C",
    sku_id          VARCHAR(64) COLLATE "C" NOT NULL,
    bucket          INT         NOT NULL,
    op              VARCHAR(16) NOT NULL,
    qty             BIGINT      NOT NULL,
    delta_available BIGINT      NOT NULL,
    delta_reserved  BIGINT      NOT NULL,
    delta_sold      BIGINT      NOT NULL,
    trace_id        VARCHAR(32),
    actor           VARCHAR(200),
    occurred_at     TIMESTAMPTZ NOT NULL,
    epoch           BIGINT,
    bucket_seq      BIGINT,
    request_id      VARCHAR(64),
    fingerprint     VARCHAR(64),
    expires_at      TIMESTAMPTZ,
    hot_available   BIGINT,
    hot_journaled   BIGINT,
    waiting_for     VARCHAR(16) NOT NULL
);
CREATE INDEX pending_event_order ON pending_event (order_id, sku_id);
CREATE INDEX pending_event_bucket ON pending_event (sku_id, waiting_for);

-- Restoring a SKU into the hot store reads its open reservations.
CREATE INDEX reservation_line_sku ON reservation_line (sku_id);
