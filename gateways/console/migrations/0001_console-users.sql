-- Up Migration
-- The console's users in the ledger's database (issue 24): an account's owner survives a restart of
-- `npm start` (PGlite) and the loss of the ledger Redis (production), as the account does. Sessions and
-- sign-in attempt logs stay in fast storage (Redis or memory): losing them only signs people out.
-- Table names start with console_ so the console can share a database with the ledger and the watcher.

-- An email claimed for a user being signed up (unique), before the user row exists: two sign-ups with
-- one email race here, as they did on Redis SET NX.
CREATE TABLE console_emails (
  email text PRIMARY KEY,
  user_id text NOT NULL,
  claimed_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE console_users (
  user_id text PRIMARY KEY,
  email text NOT NULL UNIQUE,
  -- scrypt$N$r$p$salt$hash (gateways/console/src/passwords.ts), never the password.
  password_hash text NOT NULL,
  -- The ledger account this user owns (ledger_accounts.account_id; no foreign key: the ledger's record
  -- may live in another database, LEDGER_DATABASE_URL).
  account_id text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX console_users_account ON console_users (account_id);

-- Invite codes (hashes) spent: an invite is good once, also after a lost Redis.
CREATE TABLE console_used_invites (
  code_hash text PRIMARY KEY,
  used_at timestamptz NOT NULL DEFAULT now()
);
