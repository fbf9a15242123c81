-- name: create
INSERT IGNORE INTO duty_lease (duty, holder, expires_at) VALUES (?, ?, ?);
