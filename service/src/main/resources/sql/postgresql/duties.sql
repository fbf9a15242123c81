-- name: create
INSERT INTO duty_lease (duty, holder, expires_at) VALUES (?, ?, ?) ON CONFLICT (duty) DO NOTHING;
