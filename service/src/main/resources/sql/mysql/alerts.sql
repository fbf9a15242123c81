-- The oldest alerts before a cutoff (parameters: cutoff, batch size); deliveries go by cascade.
-- MySQL refuses LIMIT inside an IN subquery, but takes ORDER BY and LIMIT on a single-table DELETE.
-- name: deleteRaisedBefore
DELETE FROM alert WHERE raised_at < ? ORDER BY raised_at LIMIT ?;
