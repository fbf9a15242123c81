-- Events the database writer of the full tier could not apply after its attempts: kept with the
-- error, visible and replayable (once) through the admin API. source names where the event came
-- from (topic-partition@offset), so that writing the same dead letter again changes nothing.
CREATE TABLE dead_letter (
    id          BIGINT        GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    source      VARCHAR(300)  NOT NULL UNIQUE,
    event_id    VARCHAR(64),
    sku_id      VARCHAR(64)   COLLATE "C",
    payload     TEXT          NOT NULL,
    error       VARCHAR(2000) NOT NULL,
    attempts    INT           NOT NULL,
    failed_at   TIMESTAMPTZ   NOT NULL,
    replayed_at TIMESTAMPTZ,
    replayed_by VARCHAR(200)
);
CREATE INDEX dead_letter_open ON dead_letter (replayed_at, id);
