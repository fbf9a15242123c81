-- A key may be a metrics key: it reads /actuator/prometheus and nothing else.
ALTER TABLE api_key DROP CONSTRAINT api_key_kind;
ALTER TABLE api_key ADD CONSTRAINT api_key_kind CHECK (kind IN ('ORDER_SERVICE', 'ADMIN', 'METRICS'));
