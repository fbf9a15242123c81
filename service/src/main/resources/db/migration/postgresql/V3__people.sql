-- People and keys managed from the console (issue 7). People and keys configured in the
-- environment are not stored here: configuration stays the source of truth for them.

-- A person who logs in to the console. Only a password hash is stored (bcrypt, with its
-- algorithm prefix); role decides what the person may change.
CREATE TABLE person (
    name          VARCHAR(64)  COLLATE "C" PRIMARY KEY,
    role          VARCHAR(16)  NOT NULL CHECK (role IN ('VIEWER', 'OPERATOR', 'ADMIN')),
    password_hash VARCHAR(200) NOT NULL,
    enabled       BOOLEAN      NOT NULL DEFAULT TRUE,
    created_at    TIMESTAMPTZ  NOT NULL,
    created_by    VARCHAR(200) NOT NULL,
    updated_at    TIMESTAMPTZ  NOT NULL
);

-- Failed logins per login name, shared by every instance: after too many in a window the name is
-- throttled for a while, whoever tries it and from wherever. Rows of names nobody tries any more
-- are deleted by a periodic sweep.
CREATE TABLE login_throttle (
    name              VARCHAR(64) COLLATE "C" PRIMARY KEY,
    failures          INT         NOT NULL CHECK (failures >= 0),
    window_started_at TIMESTAMPTZ NOT NULL,
    throttled_until   TIMESTAMPTZ
);

-- API keys created from the console. Only the SHA-256 of the secret is kept; the secret is shown
-- once, when the key is created. A revoked key stays, so the audit log's actor names stay unique.
CREATE TABLE api_key (
    name        VARCHAR(32)  COLLATE "C" PRIMARY KEY,
    kind        VARCHAR(16)  NOT NULL CHECK (kind IN ('ORDER_SERVICE', 'ADMIN')),
    secret_hash VARCHAR(64)  NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ  NOT NULL,
    created_by  VARCHAR(200) NOT NULL,
    revoked_at  TIMESTAMPTZ,
    revoked_by  VARCHAR(200)
);
