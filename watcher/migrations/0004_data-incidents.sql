-- Up Migration
-- Data incidents (issue 23, docs/data-health.md): every opening, change and closing of an incident
-- the core's replicas decided, read by the watcher from the core's log (DataHealthService), kept for
-- the status page and the operator, with the operator webhook's delivery beside each change.

CREATE TABLE data_incident_changes (
  id bigserial PRIMARY KEY,
  marketplace text NOT NULL,
  kind text NOT NULL,
  from_state text NOT NULL CHECK (from_state IN ('healthy', 'degraded', 'major')),
  to_state text NOT NULL CHECK (to_state IN ('healthy', 'degraded', 'major')),
  -- The affected fields after the change (empty when it closes the incident).
  fields text[] NOT NULL,
  at timestamptz NOT NULL,
  -- Position in the core's log when read (the log restarts if the cache Redis is lost).
  core_seq bigint NOT NULL,
  recorded_at timestamptz NOT NULL,
  webhook_status text CHECK (webhook_status IN ('PENDING', 'DELIVERED', 'FAILED', 'DEAD')),
  webhook_attempts integer NOT NULL DEFAULT 0,
  webhook_last_error text,
  -- A change read twice (a log read again from its start) is kept once.
  UNIQUE (marketplace, kind, at, to_state)
);
CREATE INDEX data_incident_changes_by_time ON data_incident_changes (at);

-- How far the core's log has been read: one row.
CREATE TABLE data_incident_log_position (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  core_seq bigint NOT NULL
);

-- Down Migration
DROP TABLE data_incident_log_position;
DROP TABLE data_incident_changes;
