-- Bulk catalogue imports: one row per job, so any instance can answer "how far is it" and the
-- record outlives the instance that ran it. updated_at is the job's heartbeat: a RUNNING job whose
-- heartbeat stopped was left by an instance that died, and is reported as ABANDONED.
-- errors holds the first lines that failed (JSON), failed counts them all.
CREATE TABLE catalogue_import (
    job_id      VARCHAR(36)  NOT NULL PRIMARY KEY,
    state       VARCHAR(16)  NOT NULL CHECK (state IN ('RUNNING', 'DONE', 'FAILED')),
    format      VARCHAR(16)  NOT NULL,
    started_by  VARCHAR(200) NOT NULL,
    started_at  DATETIME(6)  NOT NULL,
    updated_at  DATETIME(6)  NOT NULL,
    finished_at DATETIME(6),
    lines_total BIGINT       NOT NULL,
    lines_done  BIGINT       NOT NULL DEFAULT 0,
    created     BIGINT       NOT NULL DEFAULT 0,
    updated     BIGINT       NOT NULL DEFAULT 0,
    unchanged   BIGINT       NOT NULL DEFAULT 0,
    failed      BIGINT       NOT NULL DEFAULT 0,
    errors      MEDIUMTEXT   NOT NULL,
    message     VARCHAR(500),
    preheat     VARCHAR(16),
    trace_id    VARCHAR(32),
    INDEX catalogue_import_started (started_at)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
