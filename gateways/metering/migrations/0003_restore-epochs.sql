-- Up Migration
-- Restore epochs (issue 24, docs/metering.md "Restore"): every restore of an account from the record
-- bumps its epoch, and every usage row says in which epoch its call was charged (the ledger Redis's
-- account carries the epoch it was restored at, the settle script hands it off with the call) and in
-- which epoch it reached the record. A row charged in an earlier epoch than the one it was recorded in
-- reached the record after a restore that could not count it: the hand-off debits it in the restored
-- ledger as a late debit (once per hold id), so no unit is handed out twice.

ALTER TABLE ledger_accounts ADD COLUMN restore_epoch integer NOT NULL DEFAULT 0;

ALTER TABLE ledger_usage
  ADD COLUMN charged_epoch integer NOT NULL DEFAULT 0,
  ADD COLUMN recorded_epoch integer NOT NULL DEFAULT 0;

-- The late rows alone (a few after a lost Redis, none otherwise): what a restore sweeps.
CREATE INDEX ledger_usage_late ON ledger_usage (account_id, recorded_epoch) WHERE charged_epoch < recorded_epoch;

-- Every restore, for the operator: when, at which epoch, and the balance it put back.
CREATE TABLE ledger_restores (
  account_id text NOT NULL,
  epoch integer NOT NULL,
  at timestamptz NOT NULL,
  credits bigint NOT NULL,
  debits bigint NOT NULL,
  PRIMARY KEY (account_id, epoch)
);
