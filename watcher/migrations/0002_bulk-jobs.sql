-- Up Migration
-- Bulk jobs (issue 15): a job's items are stored in chunks (the unit of work a worker takes and of
-- the ledger hold), its results one row per item, written once. See docs/jobs.md "Storage".

CREATE TABLE bulk_jobs (
  id uuid PRIMARY KEY,
  account_id text NOT NULL,
  label text,
  status text NOT NULL DEFAULT 'QUEUED' CHECK (status IN ('QUEUED', 'RUNNING', 'DONE', 'CANCELLED', 'FAILED')),
  stop_reason text CHECK (stop_reason IN ('INSUFFICIENT_UNITS', 'ACCOUNT_UNAVAILABLE', 'INTERNAL')),
  total integer NOT NULL CHECK (total > 0),
  -- Items with a result (success or error), and of those the errors: counted in the transaction
  -- that writes the results, from the rows actually inserted, so a retried write counts nothing twice.
  done integer NOT NULL DEFAULT 0,
  failed integer NOT NULL DEFAULT 0,
  units_charged integer NOT NULL DEFAULT 0,
  chunk_count integer NOT NULL CHECK (chunk_count >= 0),
  -- Chunks settled or skipped: the job has ended when this reaches chunk_count.
  chunks_finished integer NOT NULL DEFAULT 0,
  webhook_url text,
  -- The ciphertext the webhooks layer hands over; the plain secret is never stored.
  webhook_secret text,
  webhook_status text CHECK (webhook_status IN ('PENDING', 'DELIVERED', 'FAILED', 'DEAD')),
  webhook_attempts integer NOT NULL DEFAULT 0,
  webhook_last_error text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  finished_at timestamptz,
  -- Set when the job has ended: the housekeeping job deletes it (with its chunks and results) then.
  expires_at timestamptz,
  CHECK ((status = 'FAILED') = (stop_reason IS NOT NULL)),
  CHECK ((webhook_url IS NULL) = (webhook_secret IS NULL))
);
-- Listing per account, newest first, keyset-paginated on (created_at, id).
CREATE INDEX bulk_jobs_by_account ON bulk_jobs (account_id, created_at, id);
-- Retention: the ended jobs whose time is up.
CREATE INDEX bulk_jobs_expiry ON bulk_jobs (expires_at) WHERE expires_at IS NOT NULL;
-- Jobs still to run (requeued at worker start).
CREATE INDEX bulk_jobs_open ON bulk_jobs (created_at) WHERE status IN ('QUEUED', 'RUNNING');

-- A chunk: up to JOB_CHUNK_SIZE items (`items` is a BatchLookupRequest's encoding, `indexes` their
-- positions in the job), the work of one queue job and one ledger hold.
-- PENDING → RUNNING (taken) → SETTLING (results written, the hold's charge being settled) → SETTLED;
-- PENDING → SKIPPED when the job was cancelled or stopped first.
CREATE TABLE bulk_job_chunks (
  job_id uuid NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
  chunk integer NOT NULL,
  indexes integer[] NOT NULL,
  items bytea NOT NULL,
  state text NOT NULL DEFAULT 'PENDING' CHECK (state IN ('PENDING', 'RUNNING', 'SETTLING', 'SETTLED', 'SKIPPED')),
  -- SETTLING: the hold being settled, the successes it charges and when it was marked, so a run after
  -- a crash settles the same hold for the same count (exactly once by hold id) or, too late for that, nothing.
  hold_id text,
  successes integer,
  marked_at timestamptz,
  units_charged integer,
  PRIMARY KEY (job_id, chunk)
);

-- One row per item, written once (the primary key): the download streams it in index order.
CREATE TABLE bulk_job_results (
  job_id uuid NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
  index integer NOT NULL,
  ok boolean NOT NULL,
  -- The item's retail.v1.BatchItemResult, encoded.
  result bytea NOT NULL,
  PRIMARY KEY (job_id, index)
);

-- Down Migration
DROP TABLE bulk_job_results;
DROP TABLE bulk_job_chunks;
DROP TABLE bulk_jobs;
