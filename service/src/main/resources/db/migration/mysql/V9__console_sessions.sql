-- Console sessions, shared by every instance; see the PostgreSQL migration for why each table and
-- column exists. The table names are in capitals because Spring Session spells them so in its
-- statements, and MySQL compares table names case-sensitively where it stores them as files on a
-- case-sensitive file system (lower_case_table_names = 0, the Linux default).
CREATE TABLE CONSOLE_SESSION (
    primary_id            CHAR(36)     NOT NULL PRIMARY KEY,
    session_id            CHAR(36)     NOT NULL,
    creation_time         BIGINT       NOT NULL,
    last_access_time      BIGINT       NOT NULL,
    max_inactive_interval INT          NOT NULL,
    expiry_time           BIGINT       NOT NULL,
    principal_name        VARCHAR(100),
    CONSTRAINT console_session_id UNIQUE (session_id)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
CREATE INDEX console_session_expiry ON CONSOLE_SESSION (expiry_time);
CREATE INDEX console_session_principal ON CONSOLE_SESSION (principal_name);

CREATE TABLE CONSOLE_SESSION_ATTRIBUTES (
    session_primary_id CHAR(36)     NOT NULL,
    attribute_name     VARCHAR(200) NOT NULL,
    attribute_bytes    BLOB         NOT NULL,
    PRIMARY KEY (session_primary_id, attribute_name),
    CONSTRAINT console_session_attributes_session FOREIGN KEY (session_primary_id)
        REFERENCES CONSOLE_SESSION (primary_id) ON DELETE CASCADE
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
