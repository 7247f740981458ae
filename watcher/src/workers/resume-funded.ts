/**
 * The resume check: every account with watches paused for lack of units whose balance covers a
 * refresh again gets them back (resumePaused: WATCH_RESUMED, schedules back, one refresh now).
 * The ledger does not tell the watcher about grants, so the watcher asks it, once a minute, only
 * about the accounts that have such watches (a short list: paused accounts, not all accounts).
 */
import type { AccountAdmin } from '@retail/metering';
import type { JobQueue } from '../queue/index.js';
import type { DeliveryJob, RefreshJob } from '../refresh/index.js';
import { resumePaused } from '../refresh/index.js';
import type { WatchStore } from '../store/index.js';

/** A refresh costs one unit (REFRESH_OPERATION); an account with less cannot be served yet. */
const UNITS_PER_REFRESH = 1;

/**
 * The accounts with at least one watch paused for lack of units. Cross-account on purpose: it is the
 * scheduler's read, never an owner's (the store's owner-facing reads all take one account).
 */
export async function accountsPausedForUnits(store: WatchStore): Promise<string[]> {
  const rows = await store.db.query<{ account_id: string }>(
    `SELECT DISTINCT account_id FROM watches WHERE status = 'PAUSED' AND paused_reason = 'INSUFFICIENT_UNITS' ORDER BY account_id`,
  );
  return rows.map((row) => row.account_id);
}

export interface ResumeFundedDependencies {
  readonly store: WatchStore;
  readonly refreshes: JobQueue<RefreshJob>;
  /** WATCH_RESUMED goes to the watch's webhook like every event. */
  readonly deliveries: JobQueue<DeliveryJob>;
  readonly accounts: Pick<AccountAdmin, 'summary'>;
  readonly now: () => Date;
  readonly log: (line: string) => void;
}

/** One run of the check; returns how many watches it resumed. One account's failure does not stop the others. */
export async function resumeFundedAccounts(deps: ResumeFundedDependencies): Promise<number> {
  let resumed = 0;
  for (const accountId of await accountsPausedForUnits(deps.store)) {
    try {
      const { balance } = await deps.accounts.summary(accountId);
      if (balance < UNITS_PER_REFRESH) continue;
      const watches = await resumePaused(deps.store, deps.refreshes, accountId, deps.now, deps.deliveries);
      resumed += watches.length;
      if (watches.length > 0) deps.log(`resumed ${watches.length} watch(es) of account ${accountId}: ${balance} units available`);
    } catch (error) {
      // A deleted account (summary throws) or a ledger hiccup: the next minute's run tries again.
      deps.log(`resume check of account ${accountId} skipped: ${(error as Error).message}`);
    }
  }
  return resumed;
}
