/**
 * The record's schema and plan table at start-up, without making PostgreSQL a condition of serving:
 * the first attempt is awaited (so a healthy start has its tables before the first write); when it
 * fails the process starts all the same and tries again every `retryMs` until it succeeds. Meanwhile
 * metered calls go on (Redis answers them), settled usage waits in the hand-off, and account changes
 * and restores fail with the database's error until the record is there.
 */
import type { Database } from '@retail/database/database';
import type { PlanTable } from '../plans.js';
import type { LedgerRecord } from './ledger-record.js';
import { migrateRecord } from './migrate.js';

export interface RecordPreparation {
  /** Stops trying (the metering closes). */
  stop(): void;
}

export interface PrepareRecordOptions {
  readonly database: Database;
  readonly record: Pick<LedgerRecord, 'recordPlans'>;
  readonly plans: PlanTable;
  readonly clock: () => number;
  readonly log: (line: string) => void;
  readonly retryMs?: number;
}

export async function prepareRecord(options: PrepareRecordOptions): Promise<RecordPreparation> {
  const { database, record, log } = options;
  const attempt = async () => {
    await migrateRecord(database);
    await record.recordPlans(options.plans, options.clock());
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  try {
    await attempt();
    return { stop: () => undefined };
  } catch (error) {
    log(`ledger record: PostgreSQL is not ready (${(error as Error).message}); serving from the ledger alone and trying again`);
  }
  const retry = () => {
    timer = setTimeout(() => {
      if (stopped) return;
      attempt().then(
        () => log('ledger record: PostgreSQL is ready; the schema is current'),
        () => retry(),
      );
    }, options.retryMs ?? 5_000);
    timer.unref();
  };
  retry();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
