/**
 * Opens the console's user store for `npm run admin -- console-operators` (the command itself is
 * the console's: gateways/console/src/admin/operators-command.ts). Here because only app/ may open
 * the watcher's database, which `npm start` shares with the console: PGlite in its data directory
 * unless DATABASE_URL. The console's own deployment keeps its users in LEDGER_DATABASE_URL, which
 * wins when set; `--redis` is for a console that keeps them in the ledger Redis alone.
 */
import { userInfo } from 'node:os';
import { createMemoryUserStore, createRecordedUserStore, createRedisUserStore, type OpenedUsers, type UserStoreLocation } from '@retail/console';
import { createPostgresDatabase, openDatabase, storeSettingsFromEnv } from '@retail/watcher/store/index';

export async function openConsoleUsers(location: UserStoreLocation, env: NodeJS.ProcessEnv): Promise<OpenedUsers> {
  if (location === 'redis') {
    const url = env.LEDGER_REDIS_URL || env.REDIS_URL;
    if (!url) throw new Error('--redis needs LEDGER_REDIS_URL (or REDIS_URL)');
    const users = createRedisUserStore({ url });
    return { users, close: () => users.close() };
  }
  const database = env.LEDGER_DATABASE_URL
    ? createPostgresDatabase({ connectionString: env.LEDGER_DATABASE_URL })
    : await openDatabase(storeSettingsFromEnv(env));
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
