-- Bootstrap of the embedded PostgreSQL (module embedded), run against its maintenance database.

-- name: databaseExists
SELECT 1 FROM pg_database WHERE datname = 'stockguard';

-- name: createDatabase
CREATE DATABASE stockguard;
