-- Up Migration
-- The ledger's system of record (issue 24): accounts, plans, keys, the credit log, the usage (debit)
-- log and the audit trail. Redis holds the hot state (balance, holds, rate buckets, key lookups) and is
-- rebuilt from these tables when it is lost: balance = credits - debits. See docs/metering.md, "The
-- record". Table names start with ledger_ so the record can share a database with the watcher.

CREATE TABLE ledger_plans (
  name text PRIMARY KEY,
  -- The plan as the process that last started defined it (METERING_PLANS merged over the built-ins).
  definition jsonb NOT NULL,
  recorded_at timestamptz NOT NULL
);

CREATE TABLE ledger_accounts (
  account_id text PRIMARY KEY,
  plan text NOT NULL,
  disabled boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL,
  -- Deleted accounts keep their rows (billing, disputes); they are never restored to the ledger.
  deleted_at timestamptz
);

-- Keys by their SHA-256 (hex), never the key. The display prefix names a key to its owner.
CREATE TABLE ledger_keys (
  key_id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES ledger_accounts (account_id),
  hash text NOT NULL UNIQUE,
  prefix text NOT NULL,
  label text,
  operations text[] NOT NULL DEFAULT '{}',
  interfaces text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  revoked_at timestamptz
);
CREATE INDEX ledger_keys_account ON ledger_keys (account_id);

-- Append-only: every unit an account was given (its opening grant, grants, adjustments).
CREATE TABLE ledger_credits (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id text NOT NULL REFERENCES ledger_accounts (account_id),
  units bigint NOT NULL,
  reason text NOT NULL CHECK (reason IN ('account.create', 'account.grant')),
  at timestamptz NOT NULL
);
CREATE INDEX ledger_credits_account ON ledger_credits (account_id);

-- Append-only: one row per charged call (a settled hold). The hold id is the idempotency key: a
-- hand-off delivered twice writes once. key_id is '' for background work (watches, jobs).
CREATE TABLE ledger_usage (
  account_id text NOT NULL,
  hold_id text NOT NULL,
  key_id text NOT NULL,
  interface text NOT NULL,
  -- The operations charged, in order; units = their number.
  operations text[] NOT NULL,
  units integer NOT NULL CHECK (units > 0),
  settled_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, hold_id)
);
CREATE INDEX ledger_usage_account_time ON ledger_usage (account_id, settled_at);

-- Append-only: who changed what on an account, kept as long as the account's records.
CREATE TABLE ledger_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id text NOT NULL,
  at timestamptz NOT NULL,
  action text NOT NULL,
  key_id text,
  detail text
);
CREATE INDEX ledger_audit_account ON ledger_audit (account_id, id);
