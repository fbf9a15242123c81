-- The oldest alerts before a cutoff (parameters: cutoff, batch size); deliveries go by cascade.
-- name: deleteRaisedBefore
DELETE FROM alert
WHERE id IN (SELECT id FROM alert WHERE raised_at < ? ORDER BY raised_at LIMIT ?);
