-- Events the database writer of the full tier could not apply after its attempts: kept with the
-- error, visible and replayable (once) through the admin API. source names where the event came
-- from (topic-partition@offset), so that writing the same dead letter again changes nothing.
CREATE TABLE dead_letter (
    id          BIGINT        NOT NULL AUTO_INCREMENT PRIMARY KEY,
    source      VARCHAR(300)  NOT NULL UNIQUE,
    event_id    VARCHAR(64),
    sku_id      VARCHAR(64),
    payload     MEDIUMTEXT    NOT NULL,
    error       VARCHAR(2000) NOT NULL,
    attempts    INT           NOT NULL,
    failed_at   DATETIME(6)   NOT NULL,
    replayed_at DATETIME(6),
    replayed_by VARCHAR(200),
    INDEX dead_letter_open (replayed_at, id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
