-- Which side sells a SKU, as one explicit state (see io.stockguard.reservation.Ownership):
--   DATABASE  the database ledger sells (hot_epoch: the hot store's last epoch, 0 if never loaded)
--   HOT       the hot store loaded at hot_epoch sells; the database applies its journal
--   DRAINING  the hot store at hot_epoch is being stopped since owner_since; nobody sells
-- It replaces hot_valid / hot_invalid_since, which could not tell "never loaded" from "taken over".
ALTER TABLE sku
    ADD COLUMN owner       VARCHAR(16) NOT NULL DEFAULT 'DATABASE',
    ADD COLUMN owner_since DATETIME(6),
    ADD COLUMN owner_seq   BIGINT      NOT NULL DEFAULT 0;

UPDATE sku SET owner = CASE WHEN hot_valid THEN 'HOT'
                            WHEN hot_invalid_since IS NOT NULL THEN 'DRAINING'
                            ELSE 'DATABASE' END,
               owner_since = hot_invalid_since;

ALTER TABLE sku DROP COLUMN hot_valid, DROP COLUMN hot_invalid_since;
ALTER TABLE sku ADD CONSTRAINT sku_owner_state CHECK (owner IN ('DATABASE', 'HOT', 'DRAINING'));
ALTER TABLE sku ADD CONSTRAINT sku_draining_since CHECK (owner <> 'DRAINING' OR owner_since IS NOT NULL);

-- Every ownership change takes the next number from this one row, under its lock: changes are
-- numbered in the order they commit, so an instance that has read every change up to n has missed
-- none below it (its view of who sells is complete up to n).
CREATE TABLE ownership_clock (
    id  INT    PRIMARY KEY,
    seq BIGINT NOT NULL,
    CONSTRAINT ownership_clock_one_row CHECK (id = 1)
);
INSERT INTO ownership_clock (id, seq) VALUES (1, 0);
CREATE INDEX sku_owner_seq ON sku (owner_seq);
