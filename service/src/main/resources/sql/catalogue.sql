-- Import jobs of the bulk catalogue (see V10__catalogue_import.sql).

-- name: startImport
INSERT INTO catalogue_import (job_id, state, format, started_by, started_at, updated_at, lines_total, errors, trace_id)
VALUES (?, 'RUNNING', ?, ?, ?, ?, ?, '[]', ?);

-- name: importProgress
UPDATE catalogue_import
SET lines_done = ?, created = ?, updated = ?, unchanged = ?, failed = ?, errors = ?, updated_at = ?
WHERE job_id = ? AND state = 'RUNNING';

-- name: finishImport
UPDATE catalogue_import
SET state = ?, lines_done = ?, created = ?, updated = ?, unchanged = ?, failed = ?, errors = ?, message = ?,
    preheat = ?, updated_at = ?, finished_at = ?
WHERE job_id = ?;

-- name: importJob
SELECT job_id, state, format, started_by, started_at, updated_at, finished_at, lines_total, lines_done, created,
       updated, unchanged, failed, errors, message, preheat, trace_id
FROM catalogue_import WHERE job_id = ?;

-- name: recentImports
SELECT job_id, state, format, started_by, started_at, updated_at, finished_at, lines_total, lines_done, created,
       updated, unchanged, failed, errors, message, preheat, trace_id
FROM catalogue_import ORDER BY started_at DESC, job_id LIMIT ?;
