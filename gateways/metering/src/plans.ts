/**
 * Plans and the token-bucket rate limiter's arithmetic. The Redis store runs the same arithmetic in
 * Lua (lua.ts); this file is the reference the memory store uses and that both are tested against.
 */
import { CreateWatchRequestSchema, parameterRules } from '@retail/contract';
import type { RateLimitState } from './api.js';

/**
 * Sustained rate and burst of a plan (`ratePerSecond: Infinity` means no rate limit), and its watch
 * limits, which the watcher enforces; absent ones fall back to the deployment's defaults there.
 */
export interface Plan {
  readonly ratePerSecond: number;
  readonly burst: number;
  /** Shortest refresh interval a watch may have; default the proto's minimum (900 s). */
  readonly minWatchIntervalSeconds?: number;
  /** Most watches an account may have; default MAX_WATCHES_PER_ACCOUNT (1000). */
  readonly maxWatches?: number;
}
export type PlanTable = Readonly<Record<string, Plan>>;

/**
 * Built-in plans. `free` (new accounts): 5 requests/s sustained with bursts of 10, so
 * `RateLimit-Policy: "free";q=10;w=2`; watches hourly at most often (the proto's default interval,
 * so a create without one passes) and 10 of them: each refresh costs a unit and a free account
 * starts with 100, so one hourly watch already spends 24 a day, and a 15-minute one 96.
 * `development`: the key `npm start` and `npm run demo` print, 100 requests/s with bursts of 200,
 * so a person trying the service (a script in a loop, a page of GraphiQL queries) is not throttled
 * as a free sign-up is; the deployment's watch defaults. Never the plan of new accounts
 * (createMetering refuses it as the default).
 * `unlimited`: no rate limit and the deployment's watch defaults (internal use, benchmarks).
 */
export const DEFAULT_PLANS: PlanTable = {
  free: { ratePerSecond: 5, burst: 10, minWatchIntervalSeconds: 3600, maxWatches: 10 },
  development: { ratePerSecond: 100, burst: 200 },
  unlimited: { ratePerSecond: Infinity, burst: Infinity },
};
export const DEFAULT_PLAN = 'free';
/** The plan of the development key `npm start` prints. */
export const DEVELOPMENT_PLAN = 'development';

/** Header value used for the quota of an unlimited plan (Structured Field Integers must be finite). */
export const UNLIMITED_QUOTA = 1_000_000_000;

export function isUnlimited(plan: Plan): boolean {
  return !Number.isFinite(plan.ratePerSecond) || !Number.isFinite(plan.burst);
}

export interface Bucket {
  readonly tokens: number;
  readonly updatedAt: number;
}

/** Tokens available at `now` (a missing bucket is full). */
export function refill(bucket: Bucket | undefined, plan: Plan, now: number): number {
  if (!bucket) return plan.burst;
  const elapsed = Math.max(0, now - bucket.updatedAt);
  return Math.min(plan.burst, bucket.tokens + (elapsed * plan.ratePerSecond) / 1000);
}

/** The state a client sees after the decision, `tokens` being what is left in the bucket. */
export function rateLimitState(planName: string, plan: Plan, tokens: number): RateLimitState {
  if (isUnlimited(plan)) {
    return { policyName: planName, limit: Infinity, windowSeconds: 1, remaining: Infinity, resetSeconds: 0 };
  }
  return {
    policyName: planName,
    limit: plan.burst,
    windowSeconds: Math.max(1, Math.ceil(plan.burst / plan.ratePerSecond)),
    remaining: Math.max(0, Math.floor(tokens)),
    resetSeconds: Math.max(0, Math.ceil((plan.burst - tokens) / plan.ratePerSecond)),
  };
}

/**
 * What a call of `cost` tokens needs in the bucket to be admitted: its cost, or a full bucket when
 * the cost is above the burst (it is then admitted and leaves the bucket in debt).
 */
export function tokensNeeded(plan: Plan, cost: number): number {
  return Math.min(cost, plan.burst);
}

/** Whole seconds (≥ 1) until a call of `cost` tokens (default 1) would be admitted. */
export function retryAfterSeconds(plan: Plan, tokens: number, cost = 1): number {
  return Math.max(1, Math.ceil((tokensNeeded(plan, cost) - tokens) / plan.ratePerSecond));
}

function sfString(value: string): string {
  return '"' + value.replace(/[^\x20-\x7e]/g, '').replace(/(["\\])/g, '\\$1') + '"';
}

function sfInteger(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : UNLIMITED_QUOTA;
}

/** IETF draft (08+) headers: `RateLimit-Policy: "free";q=10;w=2` and `RateLimit: "free";r=9;t=1`. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  const name = sfString(state.policyName);
  const quota = sfInteger(state.limit);
  return {
    'RateLimit-Policy': `${name};q=${quota};w=${Math.max(1, Math.ceil(state.windowSeconds))}`,
    'RateLimit': `${name};r=${Math.min(quota, sfInteger(state.remaining))};t=${sfInteger(state.resetSeconds)}`,
  };
}

/** The plan table in the compact form the Lua scripts decode (cjson has no Infinity). */
export function plansForLua(plans: PlanTable): string {
  const out: Record<string, { r: number; b: number }> = {};
  for (const [name, plan] of Object.entries(plans)) {
    out[name] = isUnlimited(plan) ? { r: -1, b: -1 } : { r: plan.ratePerSecond, b: plan.burst };
  }
  return JSON.stringify(out);
}

/** The interval bounds a watch request declares (900 s to 7 days): a plan narrows them, never widens. */
const INTERVAL_RULES = parameterRules(CreateWatchRequestSchema.field.intervalSeconds);
export const WATCH_INTERVAL_BOUNDS = { minimum: INTERVAL_RULES.minimum!, maximum: INTERVAL_RULES.maximum! };
/** Same ceiling as MAX_WATCHES_PER_ACCOUNT (watcher/src/service/limits.ts). */
export const MAX_WATCHES_CEILING = 1_000_000;

function checkWatchLimits(name: string, plan: Plan): void {
  const { minWatchIntervalSeconds: interval, maxWatches } = plan;
  const { minimum, maximum } = WATCH_INTERVAL_BOUNDS;
  if (interval !== undefined && !(Number.isInteger(interval) && interval >= minimum && interval <= maximum)) {
    throw new Error(`plan ${name}: minWatchIntervalSeconds must be a whole number from ${minimum} to ${maximum}, got ${interval}`);
  }
  if (maxWatches !== undefined && !(Number.isInteger(maxWatches) && maxWatches >= 1 && maxWatches <= MAX_WATCHES_CEILING)) {
    throw new Error(`plan ${name}: maxWatches must be a whole number from 1 to ${MAX_WATCHES_CEILING}, got ${maxWatches}`);
  }
}

/** Throws on a plan the limiter cannot run (the Lua script divides by the rate) or watch limits out of bounds. */
export function validatePlans(plans: PlanTable): void {
  for (const [name, plan] of Object.entries(plans)) {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) throw new Error(`plan name ${JSON.stringify(name)} must be 1-40 of [A-Za-z0-9_-]`);
    checkWatchLimits(name, plan);
    // NaN is not finite either: a missing rate must not read as "unlimited".
    if (Number.isNaN(plan.ratePerSecond) || Number.isNaN(plan.burst)) throw new Error(`plan ${name}: ratePerSecond and burst must be numbers or "unlimited"`);
    if (isUnlimited(plan)) continue;
    if (!(plan.ratePerSecond > 0) || !(plan.burst >= 1)) throw new Error(`plan ${name}: ratePerSecond must be > 0 and burst ≥ 1`);
  }
}

const PLAN_FIELDS = ['ratePerSecond', 'burst', 'minWatchIntervalSeconds', 'maxWatches'] as const;

/** An object plan; an unknown field is refused, so a misspelt limit is not silently the default. */
function planOf(name: string, value: Record<string, unknown>): Plan {
  const unknown = Object.keys(value).filter((key) => !(PLAN_FIELDS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new Error(`plan ${name}: unknown field ${unknown.join(', ')} (known: ${PLAN_FIELDS.join(', ')})`);
  const { ratePerSecond, burst, minWatchIntervalSeconds, maxWatches } = value;
  return {
    ratePerSecond: ratePerSecond === 'unlimited' ? Infinity : Number(ratePerSecond),
    burst: burst === 'unlimited' ? Infinity : Number(burst),
    ...(minWatchIntervalSeconds !== undefined && { minWatchIntervalSeconds: Number(minWatchIntervalSeconds) }),
    ...(maxWatches !== undefined && { maxWatches: Number(maxWatches) }),
  };
}

/**
 * Plans from configuration text: JSON `{ "pro": { "ratePerSecond": 50, "burst": 100,
 * "minWatchIntervalSeconds": 900, "maxWatches": 500 }, "internal": "unlimited" }`. An unlimited plan
 * with watch limits: `{ "ratePerSecond": "unlimited", "burst": "unlimited", "maxWatches": 50 }`.
 */
export function parsePlans(text: string): PlanTable {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const plans: Record<string, Plan> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === 'unlimited') plans[name] = { ratePerSecond: Infinity, burst: Infinity };
    else if (value && typeof value === 'object' && !Array.isArray(value)) plans[name] = planOf(name, value as Record<string, unknown>);
    else throw new Error(`plan ${name}: expected {ratePerSecond, burst, minWatchIntervalSeconds?, maxWatches?} or "unlimited"`);
  }
  validatePlans(plans);
  return plans;
}
