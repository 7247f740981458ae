/**
 * Opens the console's user store for the console-operators command, where the console keeps its
 * users: the ledger's PostgreSQL (`LEDGER_DATABASE_URL`), or with `--redis` the ledger Redis alone
 * (`LEDGER_REDIS_URL`, else `REDIS_URL`). `npm start`'s PGlite is not the console's to open (its
 * images carry no embedded engine): app/src/console-operators.ts passes it in as `defaultDatabase`.
 */
import { userInfo } from 'node:os';
import type { Database } from '@retail/database/database';
import { createPostgresDatabase } from '@retail/database/pg-database';
import { createMemoryUserStore } from '../memory-store.js';
import { createRecordedUserStore } from '../recorded-users.js';
import { createRedisUserStore } from '../redis-store.js';
import type { OpenedUsers, UserStoreLocation } from './operators-command.js';

export async function openConsoleUsers(location: UserStoreLocation, env: NodeJS.ProcessEnv, defaultDatabase?: () => Promise<Database>): Promise<OpenedUsers> {
  if (location === 'redis') {
    const url = env.LEDGER_REDIS_URL || env.REDIS_URL;
    if (!url) throw new Error('--redis needs LEDGER_REDIS_URL (or REDIS_URL)');
    const users = createRedisUserStore({ url });
    return { users, close: () => users.close() };
  }
  let database: Database;
  if (env.LEDGER_DATABASE_URL) database = createPostgresDatabase({ connectionString: env.LEDGER_DATABASE_URL });
  else if (defaultDatabase) database = await defaultDatabase();
  else throw new Error('set LEDGER_DATABASE_URL (the database the console keeps its users in), or pass --redis');
  // The database holds every user who signed in since users moved there; no session is touched.
  const users = createRecordedUserStore({ database, fast: createMemoryUserStore() });
  return {
    users,
    close: async () => {
      await users.close();
      await database.close();
    },
  };
}

/** Who ran the command, for the audit trail: the operating-system user. */
export function adminActor(env: NodeJS.ProcessEnv): string {
  let name = env.USER || env.USERNAME;
  try {
    name ||= userInfo().username;
  } catch {
    // No passwd entry (a container's arbitrary uid): the actor says so.
  }
  return `admin-cli:${name || 'unknown'}`;
}
