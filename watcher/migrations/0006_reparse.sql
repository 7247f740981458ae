-- Up Migration
-- Re-parsing (issue 23 part 6, docs/page-archive.md "Repairing history after a parser fix"): the
-- watcher's reparse job reads archived pages again with the core's current parser and corrects the
-- history points that came from them.

-- The parser that last read an archived page again (`product-page@4`), and when: the job skips a
-- page already read by the current parser, so running it twice changes nothing the second time.
-- `parser` and `parsed` stay what was read at fetch time.
ALTER TABLE archived_pages ADD COLUMN reparsed_with text, ADD COLUMN reparsed_at timestamptz;

-- One row per reparse job: what it walks, where it is (the keyset cursor over archived_pages, moved
-- in the same transaction as each page's corrections, so a job resumed after a crash neither skips
-- nor repeats a page), and its page counts. Its corrections are the rows of snapshot_revisions.
CREATE TABLE reparse_jobs (
  id text PRIMARY KEY,
  domain text NOT NULL,
  kind text NOT NULL,
  since timestamptz NOT NULL,
  until timestamptz,
  force boolean NOT NULL DEFAULT false,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done', 'failed')),
  cursor_at timestamptz,
  cursor_id uuid,
  pages integer NOT NULL DEFAULT 0,
  reparsed integer NOT NULL DEFAULT 0,
  skipped integer NOT NULL DEFAULT 0,
  unreadable integer NOT NULL DEFAULT 0,
  without_point integer NOT NULL DEFAULT 0,
  points_revised integer NOT NULL DEFAULT 0,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

-- Every field of a history point a re-parse changed, with the value before (and its mark: unknown,
-- suspect or none) for audit. A job writes a (point, field) once: a page redone after a crash
-- finds its row.
CREATE TABLE snapshot_revisions (
  product_id integer NOT NULL,
  at timestamptz NOT NULL,
  field text NOT NULL,
  old_value jsonb,
  old_mark text CHECK (old_mark IN ('unknown', 'suspect')),
  new_value jsonb,
  old_parser text NOT NULL,
  new_parser text NOT NULL,
  page_id uuid NOT NULL,
  job_id text NOT NULL REFERENCES reparse_jobs (id) ON DELETE CASCADE,
  revised_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (product_id, at, field, job_id)
);
CREATE INDEX snapshot_revisions_by_job ON snapshot_revisions (job_id);

-- Down Migration
DROP TABLE snapshot_revisions;
DROP TABLE reparse_jobs;
ALTER TABLE archived_pages DROP COLUMN reparsed_at, DROP COLUMN reparsed_with;
