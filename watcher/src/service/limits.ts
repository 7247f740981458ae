/**
 * Watch limits. The proto bounds every interval (900 s to 7 days, declared on the request fields and
 * checked with them). The caller's metering plan narrows the shortest interval
 * (`minWatchIntervalSeconds`) and sets the most watches (`maxWatches`); a plan without them, or a
 * service without `planOf`, has the proto's minimum and MAX_WATCHES_PER_ACCOUNT. The plan is read
 * only by the calls it can refuse (a create, an update that changes the interval), before anything
 * is stored or queued, so a refusal costs nothing.
 */
import { ErrorReason } from '@retail/contract';
import { type AccountAdmin, MeteringAdminError, type PlanTable } from '@retail/metering';
import { type AccountWatchPlan, DEFAULT_MAX_WATCHES_PER_ACCOUNT, type PlanOf, type ServiceParts } from './deps.js';
import { invalidArgument, WatchServiceError } from './errors.js';

export const MAX_WATCHES_VARIABLE = 'MAX_WATCHES_PER_ACCOUNT';

export function watchLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): { maxWatchesPerAccount: number } {
  const raw = env[MAX_WATCHES_VARIABLE];
  if (raw === undefined || raw === '') return { maxWatchesPerAccount: DEFAULT_MAX_WATCHES_PER_ACCOUNT };
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1_000_000) throw new Error(`${MAX_WATCHES_VARIABLE} must be a whole number from 1 to 1000000, got "${raw}"`);
  return { maxWatchesPerAccount: value };
}

/** What `createPlanOf` reads of a metering instance (`createMetering`'s result has all of it). */
export interface PlanSource {
  readonly admin: Pick<AccountAdmin, 'accountPlan'>;
  readonly plans: PlanTable;
  readonly defaultPlan: string;
}

/**
 * `planOf` over the metering library: the account's plan name from the ledger (one key read), its limits from the
 * plan table. An account whose plan left the table, or that is gone, is rated on the default plan,
 * as the meter rates it.
 */
export function createPlanOf(metering: PlanSource): PlanOf {
  return async (accountId) => {
    let named = metering.defaultPlan;
    try {
      named = await metering.admin.accountPlan(accountId);
    } catch (error) {
      if (!(error instanceof MeteringAdminError && error.code === 'NOT_FOUND')) throw error;
    }
    const name = metering.plans[named] ? named : metering.defaultPlan;
    const { minWatchIntervalSeconds, maxWatches } = metering.plans[name] ?? {};
    return { name, ...(minWatchIntervalSeconds !== undefined && { minWatchIntervalSeconds }), ...(maxWatches !== undefined && { maxWatches }) };
  };
}

/** The limits one call is held to; `plan` is absent when the service has no `planOf`. */
export interface AccountLimits {
  readonly plan?: string;
  /** Absent: only the proto's minimum, already checked with the request's declared rules. */
  readonly minIntervalSeconds?: number;
  readonly maxWatches: number;
}

export async function accountLimits(parts: ServiceParts, accountId: string): Promise<AccountLimits> {
  let plan: AccountWatchPlan | undefined;
  try {
    plan = await parts.planOf?.(accountId);
  } catch (error) {
    // The ledger is down: say so (503), as a metered call would, rather than an internal error.
    throw new WatchServiceError(ErrorReason.LEDGER_UNAVAILABLE, 'the account\'s plan could not be read; retry shortly', [], { cause: error });
  }
  return {
    ...(plan && { plan: plan.name }),
    ...(plan?.minWatchIntervalSeconds !== undefined && { minIntervalSeconds: plan.minWatchIntervalSeconds }),
    maxWatches: plan?.maxWatches ?? parts.maxWatchesPerAccount,
  };
}

const onPlan = (limits: AccountLimits) => (limits.plan === undefined ? '' : ` on plan ${limits.plan}`);

export function checkInterval(limits: AccountLimits, intervalSeconds: number): void {
  if (limits.minIntervalSeconds !== undefined && intervalSeconds < limits.minIntervalSeconds) {
    throw invalidArgument(`intervalSeconds must be at least ${limits.minIntervalSeconds}${onPlan(limits)}`, 'interval_seconds');
  }
}

/** A soft cap: two creates racing at the limit may both pass, which only matters by one watch. */
export async function checkRoomForWatch(parts: ServiceParts, limits: AccountLimits, accountId: string): Promise<void> {
  if (await parts.store.watches.count(accountId) >= limits.maxWatches) {
    throw new WatchServiceError(ErrorReason.RATE_LIMITED,
      `the account has ${limits.maxWatches} watches, the most allowed${onPlan(limits)}; delete one before creating another`);
  }
}
