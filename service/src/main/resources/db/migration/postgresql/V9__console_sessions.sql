-- Console sessions, shared by every instance: a person logged in on one instance is logged in on
-- all of them, and a logout or a timeout on one ends the session everywhere. Spring Session reads
-- and writes these tables (its PostgreSQL schema, under the console's names). It spells them in
-- capitals (CONSOLE_SESSION, CONSOLE_SESSION_ATTRIBUTES), which PostgreSQL folds to these names.
-- Times are epoch milliseconds, as Spring Session writes them; expired sessions are deleted in
-- batches by a periodic sweep.
CREATE TABLE console_session (
    primary_id            CHAR(36)     COLLATE "C" PRIMARY KEY,
    session_id            CHAR(36)     COLLATE "C" NOT NULL,
    creation_time         BIGINT       NOT NULL,
    last_access_time      BIGINT       NOT NULL,
    max_inactive_interval INT          NOT NULL,
    expiry_time           BIGINT       NOT NULL,
    principal_name        VARCHAR(100) COLLATE "C"
);
CREATE UNIQUE INDEX console_session_id ON console_session (session_id);
CREATE INDEX console_session_expiry ON console_session (expiry_time);
CREATE INDEX console_session_principal ON console_session (principal_name);

-- One row per attribute of a session (the security context, the CSRF token, the page asked for
-- before logging in, a notice for the next page), Java-serialized; deleted with its session.
CREATE TABLE console_session_attributes (
    session_primary_id CHAR(36)     COLLATE "C" NOT NULL
        REFERENCES console_session (primary_id) ON DELETE CASCADE,
    attribute_name     VARCHAR(200) COLLATE "C" NOT NULL,
    attribute_bytes    BYTEA        NOT NULL,
    PRIMARY KEY (session_primary_id, attribute_name)
);
