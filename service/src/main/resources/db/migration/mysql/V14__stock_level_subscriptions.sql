-- Webhook subscriptions to stock-level events made by the admin API, beside those configured by
-- property. The secret signs every delivery, so it is kept as it is (like the properties' secrets);
-- the API shows it once, when the subscription is made, and never again.
CREATE TABLE stock_level_subscription (
    name       VARCHAR(64)   NOT NULL PRIMARY KEY,
    url        VARCHAR(2000) NOT NULL,
    secret     VARCHAR(200)  NOT NULL,
    created_at DATETIME(6) NOT NULL,
    created_by VARCHAR(200)  NOT NULL
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;
