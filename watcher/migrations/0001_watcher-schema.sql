-- Up Migration
-- The watcher's schema (issue 14). Watches, events and deliveries are private to their account;
-- products and snapshots are shared facts about the marketplace. See docs/watches.md "Storage".

-- One row per product any watch ever served: snapshots carry a 4-byte product id instead of
-- (domain, asin), which keeps the 10-million-row table and its index about a third smaller.
CREATE TABLE products (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  domain text NOT NULL,
  asin text NOT NULL,
  UNIQUE (domain, asin)
);

CREATE TABLE watches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id text NOT NULL,
  domain text NOT NULL,
  asin text NOT NULL,
  label text,
  interval_seconds integer NOT NULL CHECK (interval_seconds > 0),
  conditions jsonb NOT NULL DEFAULT '[]',
  webhook_url text,
  -- The ciphertext the webhooks layer hands over; the plain secret is never stored.
  webhook_secret text,
  status text NOT NULL DEFAULT 'ACTIVE' CHECK (status IN ('ACTIVE', 'PAUSED')),
  paused_reason text CHECK (paused_reason IN ('USER', 'INSUFFICIENT_UNITS', 'NOT_FOUND')),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  last_refresh_at timestamptz,
  next_refresh_at timestamptz NOT NULL,
  CHECK ((status = 'PAUSED') = (paused_reason IS NOT NULL)),
  CHECK ((webhook_url IS NULL) = (webhook_secret IS NULL))
);
-- Listing per account, oldest first, keyset-paginated on (created_at, id).
CREATE INDEX watches_by_account ON watches (account_id, created_at, id);
-- The scheduler's question: which active watches are due.
CREATE INDEX watches_due ON watches (next_refresh_at) WHERE status = 'ACTIVE';

-- Snapshots: range-partitioned by month of `at` (UTC). Retention drops whole partitions (no DELETE,
-- no vacuum debt); each partition's primary key (product_id, at) answers one product's history with
-- one index range scan per month. Partitions are created ahead by watcher_snapshot_partitions_ensure.
CREATE SEQUENCE snapshots_id_seq AS bigint;
CREATE TABLE snapshots (
  product_id integer NOT NULL REFERENCES products (id),
  at timestamptz NOT NULL,
  id bigint NOT NULL DEFAULT nextval('snapshots_id_seq'),
  retrieved_at timestamptz NOT NULL,
  price numeric,
  list_price numeric,
  rating real,
  ratings_total integer,
  best_sellers_rank integer,
  offer_count integer,
  in_stock boolean,
  price_currency text,
  list_price_currency text,
  buybox_seller_id text,
  best_sellers_category text,
  PRIMARY KEY (product_id, at)
) PARTITION BY RANGE (at);
ALTER SEQUENCE snapshots_id_seq OWNED BY snapshots.id;

-- Creates the monthly partitions covering `months` months from the month of `first` (UTC); returns
-- how many it created. Idempotent, and serialised by a transaction lock so that concurrent starters
-- and maintenance jobs never race on the catalog.
CREATE FUNCTION watcher_snapshot_partitions_ensure(first timestamptz, months integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamp := date_trunc('month', first AT TIME ZONE 'UTC');
  partition_name text;
  created integer := 0;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('watcher_snapshot_partitions'));
  FOR i IN 1 .. months LOOP
    partition_name := 'snapshots_' || to_char(month_start, 'YYYY_MM');
    IF to_regclass(partition_name) IS NULL THEN
      EXECUTE format('CREATE TABLE %I PARTITION OF snapshots FOR VALUES FROM (%L) TO (%L)',
        partition_name, month_start AT TIME ZONE 'UTC', (month_start + interval '1 month') AT TIME ZONE 'UTC');
      created := created + 1;
    END IF;
    month_start := month_start + interval '1 month';
  END LOOP;
  RETURN created;
END $$;

-- Drops every monthly partition that ends at or before `cutoff` (only whole months go, so at least
-- everything since `cutoff` stays); returns the names it dropped.
CREATE FUNCTION watcher_snapshot_partitions_drop_before(cutoff timestamptz) RETURNS text[]
LANGUAGE plpgsql AS $$
DECLARE
  partition_name text;
  dropped text[] := '{}';
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('watcher_snapshot_partitions'));
  FOR partition_name IN
    SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'snapshots'::regclass AND c.relname ~ '^snapshots_[0-9]{4}_[0-9]{2}$'
      AND (to_date(substr(c.relname, 11), 'YYYY_MM') + interval '1 month') AT TIME ZONE 'UTC' <= cutoff
    ORDER BY c.relname
  LOOP
    EXECUTE format('DROP TABLE %I', partition_name);
    dropped := dropped || partition_name;
  END LOOP;
  RETURN dropped;
END $$;

-- Events: `id` is the cursor. Appends take a transaction lock, so ids commit in order and a reader
-- resuming after id N never misses a later commit with a smaller id. The unique key makes a refresh
-- retried after a crash append nothing twice.
CREATE TABLE watch_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id text NOT NULL,
  watch_id uuid NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  type text NOT NULL,
  dedupe_key text NOT NULL,
  before jsonb,
  after jsonb,
  at timestamptz NOT NULL,
  UNIQUE (watch_id, type, dedupe_key)
);
CREATE INDEX watch_events_by_account ON watch_events (account_id, id);
CREATE INDEX watch_events_by_watch ON watch_events (watch_id, id);

CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  event_id bigint NOT NULL REFERENCES watch_events (id) ON DELETE CASCADE,
  watch_id uuid NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  account_id text NOT NULL,
  url text NOT NULL,
  attempt_count integer NOT NULL DEFAULT 0,
  status text NOT NULL DEFAULT 'PENDING' CHECK (status IN ('PENDING', 'DELIVERED', 'FAILED', 'DEAD')),
  last_response_status integer,
  last_error text,
  next_attempt_at timestamptz,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL,
  -- One delivery per event and endpoint: creating it again (a retried refresh) returns the first.
  UNIQUE (event_id, url)
);
-- Deliveries of one watch's webhook, newest first.
CREATE INDEX webhook_deliveries_by_watch ON webhook_deliveries (watch_id, id DESC);

-- Down Migration
DROP TABLE webhook_deliveries;
DROP TABLE watch_events;
DROP FUNCTION watcher_snapshot_partitions_drop_before(timestamptz);
DROP FUNCTION watcher_snapshot_partitions_ensure(timestamptz, integer);
DROP TABLE snapshots;
DROP TABLE watches;
DROP TABLE products;
