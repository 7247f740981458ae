/**
 * The operator's watch limits. Metering plans carry no watch limits today (only units and rate
 * limits), so the interval bounds are the proto's (900 s to 7 days, declared on the request fields)
 * and the number of watches is capped per account by one setting.
 * TODO(plans): when plans gain watch limits, narrow the interval and the cap per plan here.
 */
import { DEFAULT_MAX_WATCHES_PER_ACCOUNT } from './deps.js';

export const MAX_WATCHES_VARIABLE = 'MAX_WATCHES_PER_ACCOUNT';

export function watchLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): { maxWatchesPerAccount: number } {
  const raw = env[MAX_WATCHES_VARIABLE];
  if (raw === undefined || raw === '') return { maxWatchesPerAccount: DEFAULT_MAX_WATCHES_PER_ACCOUNT };
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 1_000_000) throw new Error(`${MAX_WATCHES_VARIABLE} must be a whole number from 1 to 1000000, got "${raw}"`);
  return { maxWatchesPerAccount: value };
}
