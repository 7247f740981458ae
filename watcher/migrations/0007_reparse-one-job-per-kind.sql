-- Up Migration
-- One reparse job per marketplace and kind at a time (docs/page-archive.md, "Repairing history after
-- a parser fix"): two jobs over the same pages would each read and correct them, writing a second
-- audit row per corrected field (snapshot_revisions is keyed by job) and revising the points twice.
-- The database refuses the second job, whichever replica or CLI creates it: `reparse` then says
-- which job is active (exit code 3).

-- Jobs created before this rule: the oldest active job of a marketplace and kind keeps running, the
-- others end as failed, saying why (their corrections stay; a new job finishes their window, the
-- pages already read by the current parser are skipped).
UPDATE reparse_jobs SET state = 'failed', finished_at = now(),
  error = 'ended by migration 0007: another job over the same marketplace and kind was active (one at a time)'
WHERE state IN ('queued', 'running') AND id IN (
  SELECT id FROM (
    SELECT id, row_number() OVER (PARTITION BY domain, kind ORDER BY created_at, id) AS n
    FROM reparse_jobs WHERE state IN ('queued', 'running')
  ) active WHERE n > 1
);

CREATE UNIQUE INDEX reparse_jobs_one_active_per_kind ON reparse_jobs (domain, kind) WHERE state IN ('queued', 'running');

-- Down Migration
DROP INDEX reparse_jobs_one_active_per_kind;
