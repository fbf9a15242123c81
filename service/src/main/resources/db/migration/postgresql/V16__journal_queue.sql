-- The standard tier's journal (module journal): each request's events, appended in one group commit
-- before the request is answered, and applied to the ledger tables behind the answer, in order.
-- An entry is deleted in the transaction that applies it, so the table holds only the backlog.
CREATE TABLE journal_entry (
    seq    BIGINT PRIMARY KEY,
    events BYTEA  NOT NULL
);

-- Two counters: 'appended', the last entry's number, and 'applied', the last applied. Appenders take
-- numbers under the 'appended' row's lock, so entries commit in number order and the applier never
-- passes a number whose entry is still to commit. A hand-over of a SKU takes that lock too (see
-- ledger.sql, lockJournalAppends), so an append either commits before it or sees it.
CREATE TABLE journal_mark (
    name VARCHAR(20) PRIMARY KEY,
    seq  BIGINT      NOT NULL
);
INSERT INTO journal_mark (name, seq) VALUES ('appended', 0), ('applied', 0);
