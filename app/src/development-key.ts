/**
 * The development account and key `npm start` prints, kept across restarts on the same data directory
 * (issue 24): the first start makes the account (development plan, DEV_UNITS units) and its key, and
 * writes both to `development-key.json` in WATCHER_DATA_DIR (mode 0600, beside the PGlite files that
 * hold the account); later starts print the same key for the same account, so neither keys nor
 * accounts pile up per restart. The key itself has to be kept somewhere to be printed again: the
 * ledger's record only keeps its hash, and the data directory is this laptop's already.
 *
 * With DATABASE_URL the database is not the data directory's, so a file there would name accounts of
 * whichever database ran last: every start then makes a fresh account, as before.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MeteringInstance } from '@retail/metering';
import { DEVELOPMENT_PLAN } from '@retail/metering';

export const DEVELOPMENT_KEY_FILE = 'development-key.json';

export interface DevelopmentKey {
  readonly key: string;
  readonly accountId: string;
  /** The account's balance now (DEV_UNITS for a new one). */
  readonly balance: number;
  /** Whether this is the account an earlier start made (the file named it and its key still works). */
  readonly reused: boolean;
}

/** The kept account and key, when the file names a key that still authenticates for that account. */
async function kept(metering: MeteringInstance, file: string): Promise<{ key: string; accountId: string } | undefined> {
  let saved: { key?: unknown; accountId?: unknown };
  try {
    saved = JSON.parse(await readFile(file, 'utf8')) as typeof saved;
  } catch {
    return undefined; // none yet, or unreadable: a fresh account
  }
  if (typeof saved.key !== 'string' || typeof saved.accountId !== 'string') return undefined;
  const auth = await metering.meter.authenticate(saved.key, 'rest');
  return auth.ok && auth.accountId === saved.accountId ? { key: saved.key, accountId: saved.accountId } : undefined;
}

export async function developmentKey(
  metering: MeteringInstance,
  units: number,
  store: { readonly databaseUrl?: string; readonly dataDir: string },
): Promise<DevelopmentKey> {
  const file = store.databaseUrl ? undefined : join(store.dataDir, DEVELOPMENT_KEY_FILE);
  const previous = file ? await kept(metering, file) : undefined;
  if (previous) {
    return { ...previous, balance: (await metering.admin.summary(previous.accountId)).balance, reused: true };
  }
  // A person trying the service is not throttled at the free plan's 5 requests/s.
  const { accountId } = await metering.admin.createAccount({ units, plan: DEVELOPMENT_PLAN });
  const { key } = await metering.admin.createKey(accountId, { label: 'development' });
  if (file) await writeFile(file, `${JSON.stringify({ accountId, key })}\n`, { mode: 0o600 });
  return { key, accountId, balance: units, reused: false };
}
