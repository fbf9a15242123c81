-- PostgreSQL forms of the journal's statements.

-- The appended journal's entries, one per caller, numbered from the mark the same transaction has
-- just moved (takeNumbers): sent in one round trip with the numbers and the fence's reads, before
-- the fence has answered (see AppendedJournal.append; an entry it changes is rewritten).
-- name: appendEntries
INSERT INTO journal_entry (seq, events)
SELECT m.seq - :count + e.n, e.events
FROM journal_mark m, unnest(CAST(:events AS bytea[])) WITH ORDINALITY AS e(events, n)
WHERE m.name = 'appended';
