-- Up Migration
-- The page archive (issue 23 part 5, docs/page-archive.md): raw marketplace pages the core fetched,
-- compressed, with what the parser read from them, kept PAGE_ARCHIVE_DAYS. Range-partitioned by month
-- of `fetched_at` (UTC) like the snapshots: retention drops whole months. Never a request header, a
-- cookie or a session value: only what the marketplace answered and how the core read it.
CREATE TABLE archived_pages (
  -- The core's id of the page: a page delivered twice by the hand-off is recorded once.
  id uuid NOT NULL,
  fetched_at timestamptz NOT NULL,
  domain text NOT NULL,
  kind text NOT NULL,
  identifier text NOT NULL,
  url text NOT NULL,
  status smallint NOT NULL,
  parser text NOT NULL,
  content_type text NOT NULL,
  reason text NOT NULL CHECK (reason IN ('watch-refresh', 'incomplete', 'blocked', 'unparseable', 'sample')),
  missing_fields text[] NOT NULL DEFAULT '{}',
  encoding text NOT NULL CHECK (encoding IN ('br', 'gzip')),
  body bytea NOT NULL,
  -- What the parser read (NULL when it could not read the page).
  parsed jsonb,
  recorded_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (id, fetched_at)
) PARTITION BY RANGE (fetched_at);
-- The admin's question: this page of this marketplace, around this time.
CREATE INDEX archived_pages_lookup ON archived_pages (domain, kind, identifier, fetched_at);
-- Re-parsing's question (issue 23 part 6): every page of a kind in a marketplace since a time, in order.
CREATE INDEX archived_pages_by_kind ON archived_pages (domain, kind, fetched_at, id);

-- Monthly partitions of any table partitioned by month under the naming `<table>_YYYY_MM`: created
-- ahead, and dropped once the month ended before the retention cutoff. Serialised per table by a
-- transaction lock, as the snapshots' own functions (migration 0001) are.
CREATE FUNCTION watcher_month_partitions_ensure(parent text, first timestamptz, months integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamp := date_trunc('month', first AT TIME ZONE 'UTC');
  partition_name text;
  created integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('watcher_partitions_' || parent));
  FOR i IN 1 .. months LOOP
    partition_name := parent || '_' || to_char(month_start, 'YYYY_MM');
    IF to_regclass(partition_name) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        partition_name, parent, month_start AT TIME ZONE 'UTC', (month_start + interval '1 month') AT TIME ZONE 'UTC');
      created := created + 1;
    END IF;
    month_start := month_start + interval '1 month';
  END LOOP;
  RETURN created;
END $$;

CREATE FUNCTION watcher_month_partitions_drop_before(parent text, cutoff timestamptz) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  partition_name text;
  dropped text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('watcher_partitions_' || parent));
  FOR partition_name IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent::regclass AND c.relname ~ ('^' || parent || '_[0-9]{4}_[0-9]{2}$')
      AND (to_date(right(c.relname, 7), 'YYYY_MM') + interval '1 month') AT TIME ZONE 'UTC' <= cutoff
    ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE %I', partition_name);
    dropped := dropped || partition_name;
  END LOOP;
  RETURN dropped;
END $$;

-- Down Migration
DROP FUNCTION watcher_month_partitions_drop_before(text, timestamptz);
DROP FUNCTION watcher_month_partitions_ensure(text, timestamptz, integer);
DROP TABLE archived_pages;
