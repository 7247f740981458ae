/** Options of createConsole and the shared pieces its routes use. */
import type { Metering } from '@retail/metering/api';
import type { PlanTable } from '@retail/metering';
import type { AttemptLimit, AttemptLimiter } from './attempt-limiter.js';
import type { ErrorLogger } from './errors.js';
import type { PasswordCost } from './passwords.js';
import type { SessionManager } from './sessions.js';
import type { UserStore } from './store.js';
import type { WatchApi } from './watch-api.js';
import type { JobApi } from './job-api.js';
import type { ArchiveApi } from './archive-api.js';
import type { UsageHistoryQuery, UsageHistoryRow } from '@retail/metering/usage-query';

/** The ledger record's usage history of an account (MeteringInstance.usageHistory). */
export type UsageHistoryReader = (accountId: string, query: UsageHistoryQuery) => Promise<readonly UsageHistoryRow[]>;

export type SignupMode = 'open' | 'invite' | 'closed';
export const SIGNUP_MODES: readonly SignupMode[] = ['open', 'invite', 'closed'];

export interface ConsoleLimits {
  /** Failed sign-ins per email. */
  readonly signInPerEmail: AttemptLimit;
  /** Failed sign-ins per client IP (several people may share one). */
  readonly signInPerIp: AttemptLimit;
  /** Accounts created per client IP: each one is 100 free units. */
  readonly signUpPerIp: AttemptLimit;
}

const FIFTEEN_MINUTES = 15 * 60_000;
export const DEFAULT_LIMITS: ConsoleLimits = {
  signInPerEmail: { max: 5, windowMs: FIFTEEN_MINUTES },
  signInPerIp: { max: 20, windowMs: FIFTEEN_MINUTES },
  signUpPerIp: { max: 10, windowMs: 60 * 60_000 },
};

export interface ConsoleOptions {
  readonly metering: Metering;
  /** The plan table in force (the metering instance's), for the watch form's intervals; default the built-in plans. */
  readonly plans?: PlanTable;
  /** Defaults to a memory store (one process only). */
  readonly users?: UserStore;
  readonly signupMode: SignupMode;
  /** HMAC key for the session cookie; at least 32 characters. */
  readonly sessionSecret: string;
  /** Mark cookies Secure (always set it behind TLS; requests seen as HTTPS get Secure anyway). */
  readonly secureCookies: boolean;
  /** Invite codes from configuration, each usable once (more can be added to the store). */
  readonly invites?: readonly string[];
  /** Epoch milliseconds; injectable so tests move time instead of sleeping. */
  readonly clock?: () => number;
  readonly passwordCost?: PasswordCost;
  readonly limits?: Partial<ConsoleLimits>;
  /** Signed-in session lifetime (default 12 h). */
  readonly sessionTtlMs?: number;
  readonly log?: ErrorLogger;
  /** The watch service for the signed-in account; without it the page has no Watches view. */
  readonly watches?: WatchApi;
  /** The job service for the signed-in account; without it the page has no Jobs view. */
  readonly jobs?: JobApi;
  /** The ledger record's usage history (MeteringInstance.usageHistory); without it the usage chart says there is none. */
  readonly usageHistory?: UsageHistoryReader;
  /** The watcher's page archive, for operators' Operator view; without it that view's API answers 501. */
  readonly archive?: ArchiveApi;
}

export interface ConsoleContext {
  readonly metering: Metering;
  readonly plans: PlanTable;
  readonly users: UserStore;
  readonly signupMode: SignupMode;
  readonly sessions: SessionManager;
  readonly limiter: AttemptLimiter;
  readonly limits: ConsoleLimits;
  readonly passwordCost: PasswordCost;
  /** Hashes of the configured invite codes. */
  readonly configuredInvites: ReadonlySet<string>;
  readonly clock: () => number;
  /** Verified against when an email is unknown, so timing reveals nothing. */
  readonly decoyHash: Promise<string>;
  readonly watches?: WatchApi;
  readonly jobs?: JobApi;
  readonly usageHistory?: UsageHistoryReader;
  readonly archive?: ArchiveApi;
}
