/**
 * The public surface of the metering library: what gateways and the console program against.
 * The implementation (key store, Lua admit/settle scripts, memory store) lives beside this file.
 */
import type { ErrorReason } from '@retail/contract';
import type { UsageHistoryQuery, UsageHistoryRow } from './usage-query.js';

/** A client-facing interface; each accepts its own set of credential headers (docs/contract.md, Authentication). */
export type Interface = 'rest' | 'graphql' | 'mcp';

/** Work the service does on an account's behalf, charged without a key (a watch's refresh, a job's items). */
export type BackgroundWork = 'watcher' | 'jobs';

/** Where a charged call came from, as usage records and the console name it. */
export type UsageInterface = Interface | BackgroundWork;

/** Headers as Node gives them (lower-case names). */
export type HeaderBag = Record<string, string | string[] | undefined>;

/** Result of reading the API key from request headers. */
export type CredentialResult =
  | { readonly ok: true; readonly key: string }
  | { readonly ok: false; readonly denial: Denial };

/** State of the caller's rate-limit window, rendered as RateLimit-Policy / RateLimit headers. */
export interface RateLimitState {
  readonly policyName: string;
  /** Requests allowed per window (quota). Infinity for unlimited plans. */
  readonly limit: number;
  readonly windowSeconds: number;
  readonly remaining: number;
  /** Seconds until the window frees capacity. */
  readonly resetSeconds: number;
}

/** A refusal decided by the library: a value, not an exception. */
export interface Denial {
  readonly reason: ErrorReason;
  readonly httpStatus: number;
  readonly message: string;
  readonly retryAfterSeconds?: number;
  readonly rateLimit?: RateLimitState;
}

/** Units set aside for a call until it settles. */
export interface Hold {
  readonly holdId: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly units: number;
  readonly interface: UsageInterface;
  readonly operations: readonly string[];
}

/** Units held for background work: by account, with the caller's idempotency key as the hold id. */
export interface AccountAdmitRequest {
  readonly accountId: string;
  /**
   * The caller's idempotency key (e.g. watch id + refresh time): admitting it again holds once and
   * its settle is exactly once, so work retried after a crash never charges twice. At most 128
   * characters of [A-Za-z0-9:_.-].
   */
  readonly holdId: string;
  readonly work: BackgroundWork;
  /** RPC names the work performs, one unit each. */
  readonly operations: readonly string[];
}

export type AccountAdmitResult =
  | { readonly ok: true; readonly hold: Hold; readonly balance: number }
  | { readonly ok: false; readonly denial: Denial };

export interface AdmitRequest {
  readonly key: string;
  readonly interface: Interface;
  /** RPC names the call will perform (one for REST/MCP; one per operation for GraphQL). */
  readonly operations: readonly string[];
  /**
   * False when the gateway already found the parameters malformed: the script still checks
   * scope and rate limit first (docs/contract.md, order of checks) but holds nothing and answers `shape`.
   */
  readonly shapeValid: boolean;
  readonly requestId: string;
  /**
   * Tokens the call takes from the rate limit: 1 (the default) for a call, the item count for a
   * batch. A cost above the plan's burst is admitted on a full bucket and leaves it in debt
   * (docs/metering.md, Rate limits), so no batch the plan allows is refused forever.
   */
  readonly rateCost?: number;
}

export type AdmitResult =
  | { readonly ok: true; readonly hold: Hold; readonly rateLimit: RateLimitState; readonly balance: number }
  | { readonly ok: false; readonly shape: true; readonly rateLimit: RateLimitState }
  | { readonly ok: false; readonly shape?: false; readonly denial: Denial };

export interface SettleResult {
  /** Exactly what the ledger charged for this hold (0 when the ledger could not be reached in time). */
  readonly charged: number;
  /** The balance after the settle; absent when the ledger could not be reached. */
  readonly remaining?: number;
}

/** A free, authenticated call (tools/list, introspection, GET /api/account): key and scope only. */
export type AuthenticateResult =
  | { readonly ok: true; readonly accountId: string; readonly keyId: string; readonly rateLimit?: RateLimitState }
  | { readonly ok: false; readonly denial: Denial };

/**
 * A free read of the key's own account admitted by `Meter.admitRead`: whose account, and the rate
 * state after the read's token (for the RateLimit headers of its answer).
 */
export interface AdmittedRead {
  readonly accountId: string;
  readonly keyId: string;
  readonly rateLimit: RateLimitState;
}

export type AdmitReadResult = ({ readonly ok: true } & AdmittedRead) | { readonly ok: false; readonly denial: Denial };

/** Successful calls of one day, operation and interface. */
export interface UsageDay {
  readonly date: string;
  /** RPC name, e.g. "GetProduct". */
  readonly operation: string;
  /** Where the calls came from; absent for counters written before 0.2, which did not keep it. */
  readonly interface?: UsageInterface;
  readonly calls: number;
}

/** One charged call, from the account's usage stream (bounded retention). */
export interface UsageRecord {
  readonly at: string;
  readonly operation: string;
  readonly interface: UsageInterface;
  /** Empty for background work (charged by account, not through a key). */
  readonly keyId: string;
}

export interface AccountSummary {
  readonly accountId: string;
  readonly plan: string;
  readonly balance: number;
  readonly usage: readonly UsageDay[];
}

/** What gateways use per request. */
export interface Meter {
  /** Reads the key from exactly the headers `iface` accepts. */
  readCredentials(headers: HeaderBag, iface: Interface): CredentialResult;
  /** Round trip 1: key lookup, scope, rate limit, hold. */
  admit(request: AdmitRequest): Promise<AdmitResult>;
  /**
   * Holds units for background work on an account (no key, scope or rate limit): 401 when the
   * account is gone, 403 when disabled, 402 when the balance cannot cover the operations.
   */
  admitAccount(request: AccountAdmitRequest): Promise<AccountAdmitResult>;
  /**
   * Round trip 2: charge `succeeded` units of the hold and release the rest. `succeededOperations`
   * (optional) names the operations that succeeded, for the usage records of a partly failed GraphQL
   * request; without it the first `succeeded` of `hold.operations` are recorded. Exactly once per
   * hold. Never throws: when the ledger cannot be reached within the settle window it answers
   * `{ charged: 0 }` and nothing is or will be charged for the hold (docs/metering.md).
   */
  settle(hold: Hold, succeeded: number, succeededOperations?: readonly string[]): Promise<SettleResult>;
  authenticate(key: string, iface: Interface): Promise<AuthenticateResult>;
  accountSummary(key: string): Promise<AccountSummary | Denial>;
  /**
   * A free call that is work for the service (a usage history read, a query of the record): key (401),
   * account disabled and interface scope (403; `''` skips the interface, as the summary does) and one
   * rate-limit token (429 with `retryAfterSeconds` and the rate state), as a lookup's admit; no unit,
   * nothing held, so there is nothing to settle.
   */
  admitRead(key: string, iface: Interface | ''): Promise<AdmitReadResult>;
  /**
   * The usage history of the account `admitRead` admitted (free, its token already taken): only that
   * account's rows. 501 UNIMPLEMENTED when the ledger has no record, 503 when it is down.
   */
  accountUsage(read: AdmittedRead, query: UsageHistoryQuery): Promise<readonly UsageHistoryRow[] | Denial>;
  /** RateLimit-Policy and RateLimit header values for a state. */
  rateLimitHeaders(state: RateLimitState): Record<string, string>;
  close(): Promise<void>;
}

/** A key as listed to its owner: never the key itself, only its display prefix. */
export interface KeyInfo {
  readonly keyId: string;
  /** First characters of the key, enough to recognise it ("rk_live_AbC1…"). */
  readonly prefix: string;
  readonly label?: string;
  /** Operations (RPC names) and interfaces the key may use; empty means all. */
  readonly scopes: { readonly operations: readonly string[]; readonly interfaces: readonly Interface[] };
  readonly createdAt: string;
  readonly lastUsedAt?: string;
  readonly expiresAt?: string;
  readonly revokedAt?: string;
}

/** A freshly created key: the only time the full value exists outside the caller's hands. */
export interface CreatedKey {
  readonly key: string;
  readonly info: KeyInfo;
}

export interface AuditEntry {
  readonly at: string;
  readonly action: 'key.create' | 'key.revoke' | 'account.create' | 'account.grant' | 'account.plan' | 'account.disable' | 'account.enable' | 'account.delete' | 'account.restore';
  readonly keyId?: string;
  readonly detail?: string;
}

/** Account and key administration: used by the console and the admin CLI, never by gateways' hot path. */
export interface AccountAdmin {
  /** New accounts get 100 free units unless `units` says otherwise. */
  createAccount(options?: { units?: number; plan?: string }): Promise<{ accountId: string }>;
  grantUnits(accountId: string, units: number): Promise<{ balance: number }>;
  setPlan(accountId: string, plan: string): Promise<void>;
  setDisabled(accountId: string, disabled: boolean): Promise<void>;
  /** Deletes the account with its keys and usage. */
  deleteAccount(accountId: string): Promise<void>;
  createKey(
    accountId: string,
    options?: { label?: string; scopes?: KeyInfo['scopes']; expiresAt?: string },
  ): Promise<CreatedKey>;
  listKeys(accountId: string): Promise<KeyInfo[]>;
  revokeKey(accountId: string, keyId: string): Promise<boolean>;
  summary(accountId: string): Promise<AccountSummary>;
  /** The account's plan name alone: one key read, no usage (the watcher asks it per CreateWatch). */
  accountPlan(accountId: string): Promise<string>;
  /** The latest charged calls, newest first (default 50, at most 1000). */
  recentUsage(accountId: string, limit?: number): Promise<UsageRecord[]>;
  audit(accountId: string): Promise<AuditEntry[]>;
}

/**
 * What `createMetering` (gateways/metering/src/index.ts) returns: one ledger (Redis when a URL is
 * given, memory otherwise) behind both faces.
 */
export interface Metering {
  readonly meter: Meter;
  readonly admin: AccountAdmin;
  close(): Promise<void>;
}
