-- People and keys managed from the console (issue 7); see the PostgreSQL migration for why each
-- table and column exists.

CREATE TABLE person (
    name          VARCHAR(64)  NOT NULL PRIMARY KEY,
    role          VARCHAR(16)  NOT NULL,
    password_hash VARCHAR(200) NOT NULL,
    enabled       BOOLEAN      NOT NULL DEFAULT TRUE,
    created_at    DATETIME(6)  NOT NULL,
    created_by    VARCHAR(200) NOT NULL,
    updated_at    DATETIME(6)  NOT NULL,
    CONSTRAINT person_role CHECK (role IN ('VIEWER', 'OPERATOR', 'ADMIN'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE login_throttle (
    name              VARCHAR(64) NOT NULL PRIMARY KEY,
    failures          INT         NOT NULL,
    window_started_at DATETIME(6) NOT NULL,
    throttled_until   DATETIME(6),
    CONSTRAINT login_throttle_failures CHECK (failures >= 0)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

CREATE TABLE api_key (
    name        VARCHAR(32)  NOT NULL PRIMARY KEY,
    kind        VARCHAR(16)  NOT NULL,
    secret_hash VARCHAR(64)  NOT NULL,
    created_at  DATETIME(6)  NOT NULL,
    created_by  VARCHAR(200) NOT NULL,
    revoked_at  DATETIME(6),
    revoked_by  VARCHAR(200),
    CONSTRAINT api_key_secret UNIQUE (secret_hash),
    CONSTRAINT api_key_kind CHECK (kind IN ('ORDER_SERVICE', 'ADMIN'))
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
