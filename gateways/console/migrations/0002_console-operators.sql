-- Up Migration
-- The console's operator role (docs/console.md, "Operator view"): an operator sees the watcher's page
-- archive in the console. Granted and revoked only by the admin CLI (`npm run admin -- console-operators`),
-- never by sign-up or a request; read on every operator request, so a revocation holds at once.
ALTER TABLE console_users ADD COLUMN operator boolean NOT NULL DEFAULT false;

-- Every grant and revocation, kept for good: who was made (or stopped being) an operator, when, and
-- who did it. Rows are only ever added.
CREATE TABLE console_operator_events (
  id bigserial PRIMARY KEY,
  at timestamptz NOT NULL,
  user_id text NOT NULL,
  email text NOT NULL,
  -- 'grant' or 'revoke'
  action text NOT NULL CHECK (action IN ('grant', 'revoke')),
  -- Who ran the command (`admin-cli:<os user>`, or what --by said).
  actor text NOT NULL
);
CREATE INDEX console_operator_events_user ON console_operator_events (user_id, at);
