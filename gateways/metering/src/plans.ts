/**
 * Plans and the token-bucket rate limiter's arithmetic. The Redis store runs the same arithmetic in
 * Lua (lua.ts); this file is the reference the memory store uses and that both are tested against.
 */
import type { RateLimitState } from './api.js';

/** Sustained rate and burst of a plan. `ratePerSecond: Infinity` means no rate limit. */
export interface Plan {
  readonly ratePerSecond: number;
  readonly burst: number;
}
export type PlanTable = Readonly<Record<string, Plan>>;

/**
 * Built-in plans. `free` (new accounts): 5 requests/s sustained with bursts of 10, so
 * `RateLimit-Policy: "free";q=10;w=2`. `unlimited`: no rate limit (internal use, benchmarks).
 */
export const DEFAULT_PLANS: PlanTable = {
  free: { ratePerSecond: 5, burst: 10 },
  unlimited: { ratePerSecond: Infinity, burst: Infinity },
};
export const DEFAULT_PLAN = 'free';

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

/** Whole seconds (≥ 1) until one token is back. */
export function retryAfterSeconds(plan: Plan, tokens: number): number {
  return Math.max(1, Math.ceil((1 - tokens) / plan.ratePerSecond));
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

/** Throws on a plan the limiter cannot run (the Lua script divides by the rate). */
export function validatePlans(plans: PlanTable): void {
  for (const [name, plan] of Object.entries(plans)) {
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) throw new Error(`plan name ${JSON.stringify(name)} must be 1-40 of [A-Za-z0-9_-]`);
    if (isUnlimited(plan)) continue;
    if (!(plan.ratePerSecond > 0) || !(plan.burst >= 1)) throw new Error(`plan ${name}: ratePerSecond must be > 0 and burst ≥ 1`);
  }
}

/** Plans from configuration text: JSON `{ "pro": { "ratePerSecond": 50, "burst": 100 }, "internal": "unlimited" }`. */
export function parsePlans(text: string): PlanTable {
  const raw = JSON.parse(text) as Record<string, unknown>;
  const plans: Record<string, Plan> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === 'unlimited') plans[name] = { ratePerSecond: Infinity, burst: Infinity };
    else if (value && typeof value === 'object') {
      const { ratePerSecond, burst } = value as Record<string, unknown>;
      plans[name] = { ratePerSecond: Number(ratePerSecond), burst: Number(burst) };
    } else throw new Error(`plan ${name}: expected {ratePerSecond, burst} or "unlimited"`);
  }
  validatePlans(plans);
  return plans;
}
