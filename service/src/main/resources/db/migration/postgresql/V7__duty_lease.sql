-- Duties only one instance should do at a time (the reconciliation probe's schedule): who holds
-- each, until when. A holder renews well before expiry; another instance takes over only after it.
CREATE TABLE duty_lease (
    duty       VARCHAR(40)  PRIMARY KEY,
    holder     VARCHAR(200) NOT NULL,
    expires_at TIMESTAMPTZ  NOT NULL
);

-- A THROTTLED SKU without a rate would sell without limit: refused by the database itself.
ALTER TABLE sku ADD CONSTRAINT sku_throttle_has_rate CHECK (mode <> 'THROTTLED' OR throttle_rate > 0);
