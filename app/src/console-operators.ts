/**
 * Opens the console's user store for `npm run admin -- console-operators` (the command and its
 * opener are the console's: gateways/console/src/admin/). Here only for what the console may not do:
 * open `npm start`'s database, which it shares with the watcher: PGlite in its data directory
 * (WATCHER_DATA_DIR; one process at a time, so stop `npm start` first) unless DATABASE_URL. The
 * console's own deployment keeps its users in LEDGER_DATABASE_URL, which wins when set.
 */
import { openConsoleUsers as openUsers, type OpenedUsers, type UserStoreLocation } from '@retail/console';
import { openDatabase, storeSettingsFromEnv } from '@retail/watcher/store/index';

export { adminActor } from '@retail/console';

export function openConsoleUsers(location: UserStoreLocation, env: NodeJS.ProcessEnv): Promise<OpenedUsers> {
  return openUsers(location, env, () => openDatabase(storeSettingsFromEnv(env)));
}
