-- Hold extensions: how many times a reservation's hold was extended. The API allows one; the
-- count lives with the row (not only in the journal) so that the database path, and a hot store
-- restored from the database, refuse a second one as the first path did.
ALTER TABLE reservation ADD COLUMN extensions INT NOT NULL DEFAULT 0;
