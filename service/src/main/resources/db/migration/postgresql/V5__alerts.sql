-- Alerts raised by the service (module alerting) and what became of each on every channel it was
-- routed to. id is made by the service (a UUID), so deliveries can be recorded before the insert
-- returns. A repeat within the dedupe window is counted on the first alert, not stored again.
-- Rows older than stockguard.alerting.retention.max-age are deleted in batches.
CREATE TABLE alert (
    id                 VARCHAR(36)   PRIMARY KEY,
    raised_at          TIMESTAMPTZ   NOT NULL,
    level              VARCHAR(16)   NOT NULL,
    kind               VARCHAR(64)   NOT NULL,
    sku_id             VARCHAR(64)   COLLATE "C",
    title              VARCHAR(200)  NOT NULL,
    detail             VARCHAR(2000) NOT NULL,
    dedupe_key         VARCHAR(200)  NOT NULL,
    suppressed_count   INT           NOT NULL DEFAULT 0,
    last_suppressed_at TIMESTAMPTZ
);
CREATE INDEX alert_raised ON alert (raised_at, id);

-- status: PENDING, SENT, FAILED, DROPPED or SUPPRESSED; last_error never holds a URL or a secret.
CREATE TABLE alert_delivery (
    alert_id   VARCHAR(36)  NOT NULL REFERENCES alert (id) ON DELETE CASCADE,
    channel    VARCHAR(64)  NOT NULL,
    status     VARCHAR(16)  NOT NULL,
    attempts   INT          NOT NULL,
    last_error VARCHAR(500),
    updated_at TIMESTAMPTZ  NOT NULL,
    PRIMARY KEY (alert_id, channel)
);
