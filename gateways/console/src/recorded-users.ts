/**
 * The console's users in PostgreSQL (PGlite in the one-process `npm start`): users, their password
 * hashes, the email each claims and the ledger account each owns, and the invites spent, are written
 * to the database, so an account's owner survives a restart and a lost Redis as the account does
 * (issue 24). Sessions, invites handed out at runtime and the sign-in attempt logs stay in `fast` (the
 * Redis or memory store): losing them signs people out or forgets a few attempts, nothing more.
 *
 * The schema (gateways/console/migrations) is applied on first use and again after a failure, so a
 * console starts while PostgreSQL is away: sign-up and sign-in then fail (503) until it is back.
 */
import { fileURLToPath } from 'node:url';
import type { Database } from '@retail/database/database';
import { runMigrations } from '@retail/database/migrate';
import type { ConsoleUser, OperatorEvent, UserStore } from './store.js';

export const CONSOLE_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));
/** The console's own bookkeeping table and lock ("cons"): it never waits on the ledger's or the watcher's. */
const CONSOLE_MIGRATION_SET = { dir: CONSOLE_MIGRATIONS_DIR, table: 'console_migrations', lockId: 0x636f6e73 };

interface UserRow {
  user_id: string; email: string; password_hash: string; account_id: string; created_at: Date | string; operator: boolean;
}

const userOf = (row: UserRow): ConsoleUser => ({
  userId: row.user_id, email: row.email, passwordHash: row.password_hash, accountId: row.account_id,
  createdAt: new Date(row.created_at).toISOString(), ...(row.operator ? { operator: true } : {}),
});

interface OperatorEventRow {
  at: Date | string; user_id: string; email: string; action: OperatorEvent['action']; actor: string;
}

export function createRecordedUserStore(options: { database: Database; fast: UserStore }): UserStore {
  const { database: db, fast } = options;
  let migrated: Promise<void> | undefined;
  /** The schema, once; a failure is forgotten so the next call tries again. */
  const schema = () => (migrated ??= runMigrations(db, CONSOLE_MIGRATION_SET).then(
    () => undefined,
    (error: unknown) => {
      migrated = undefined;
      throw error;
    },
  ));
  const query = async <Row>(text: string, params: readonly unknown[]) => {
    try {
      await schema();
      return await db.query<Row>(text, params);
    } catch (error) {
      // PostgreSQL away: the console answers 503 (errors.ts matches the name), as for the ledger's record.
      throw Object.assign(new Error(`console users: the database is unavailable: ${(error as Error).message}`, { cause: error }), { name: 'RecordUnavailableError' });
    }
  };

  const saveUser = async (user: ConsoleUser) => {
    await query(
      `INSERT INTO console_users (user_id, email, password_hash, account_id, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id) DO UPDATE SET email = EXCLUDED.email, password_hash = EXCLUDED.password_hash, account_id = EXCLUDED.account_id`,
      [user.userId, user.email, user.passwordHash, user.accountId, new Date(user.createdAt)],
    );
  };

  /**
   * A user made before the database held them (only in the fast store) is copied in on first sight,
   * so upgrading loses nobody; a user whose email another has claimed here stays where it was.
   */
  async function adopt(user: ConsoleUser | undefined): Promise<ConsoleUser | undefined> {
    if (!user) return undefined;
    const claimed = await query<{ user_id: string }>(
      `INSERT INTO console_emails (email, user_id) VALUES ($1, $2) ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
       RETURNING user_id`,
      [user.email, user.userId],
    );
    if (claimed[0]?.user_id !== user.userId) return undefined;
    await saveUser(user);
    return user;
  }

  const getUser = async (userId: string) => {
    const [row] = await query<UserRow>('SELECT * FROM console_users WHERE user_id = $1', [userId]);
    return row ? userOf(row) : adopt(await fast.getUser(userId));
  };

  return {
    ...fast,
    async reserveEmail(email, userId) {
      const rows = await query('INSERT INTO console_emails (email, user_id) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING RETURNING 1', [email, userId]);
      return rows.length > 0;
    },
    async releaseEmail(email, userId) {
      await query('DELETE FROM console_emails WHERE email = $1 AND user_id = $2 AND NOT EXISTS (SELECT 1 FROM console_users WHERE user_id = $2)', [email, userId]);
    },
    saveUser,
    getUser,
    async findUserByEmail(email) {
      const [row] = await query<UserRow>('SELECT * FROM console_users WHERE email = $1', [email]);
      if (row) return userOf(row);
      // Only a user the fast store has and nobody here claimed: a sign-up in progress holds its claim.
      const [claim] = await query<{ user_id: string }>('SELECT user_id FROM console_emails WHERE email = $1', [email]);
      return claim ? undefined : adopt(await fast.findUserByEmail(email));
    },
    async setOperator(event) {
      const changed = await query<{ n: number }>(
        // One statement: the flag and its audit row are written together or not at all.
        `WITH flagged AS (UPDATE console_users SET operator = $1 WHERE user_id = $2 RETURNING user_id)
         INSERT INTO console_operator_events (at, user_id, email, action, actor)
         SELECT $3, user_id, $4, $5, $6 FROM flagged RETURNING 1 AS n`,
        [event.action === 'grant', event.userId, new Date(event.at), event.email, event.action, event.actor],
      );
      if (changed.length === 0) throw new Error(`no console user ${event.userId}`);
    },
    async listOperators() {
      const rows = await query<UserRow>('SELECT * FROM console_users WHERE operator ORDER BY email', []);
      return rows.map(userOf);
    },
    async operatorEvents(limit) {
      const rows = await query<OperatorEventRow>('SELECT at, user_id, email, action, actor FROM console_operator_events ORDER BY id DESC LIMIT $1', [limit]);
      return rows.map((row) => ({ at: new Date(row.at).toISOString(), userId: row.user_id, email: row.email, action: row.action, actor: row.actor }));
    },
    async consumeInvite(codeHash) {
      const rows = await query('INSERT INTO console_used_invites (code_hash) VALUES ($1) ON CONFLICT DO NOTHING RETURNING 1', [codeHash]);
      return rows.length > 0;
    },
    async ping() {
      await fast.ping();
      await query('SELECT 1', []);
    },
    // The database is its owner's (the caller that opened it); the fast store is this store's.
    close: () => fast.close(),
  };
}
