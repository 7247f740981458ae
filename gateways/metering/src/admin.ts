/**
 * Account and key administration (console, admin CLI). Not on the gateways' hot path, so misuse
 * (unknown account, unknown plan, too many keys) throws a MeteringAdminError with a public message.
 */
import type { AccountAdmin, AuditEntry, CreatedKey, Interface, KeyInfo } from './api.js';
import { ACCOUNT_ID_PATTERN, generateKey, newAccountId, newKeyId } from './keys.js';
import { recentDays } from './meter.js';
import type { PlanTable } from './plans.js';
import type { LedgerStore, StoredKey } from './store.js';

export const FREE_UNITS = 100;
const INTERFACES: readonly Interface[] = ['rest', 'graphql', 'mcp'];
const OPERATION_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export class MeteringAdminError extends Error {
  constructor(
    readonly code: 'NOT_FOUND' | 'KEY_LIMIT' | 'INVALID',
    message: string,
  ) {
    super(message);
    this.name = 'MeteringAdminError';
  }
}

export interface AdminOptions {
  readonly store: LedgerStore;
  readonly clock: () => number;
  readonly plans: PlanTable;
  readonly defaultPlan: string;
  readonly maxActiveKeys: number;
}

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

export function toKeyInfo(key: StoredKey): KeyInfo {
  const info: { -readonly [K in keyof KeyInfo]: KeyInfo[K] } = {
    keyId: key.keyId,
    prefix: key.prefix,
    scopes: { operations: [...key.operations], interfaces: [...key.interfaces] },
    createdAt: iso(key.createdAt)!,
  };
  if (key.label !== undefined) info.label = key.label;
  if (key.lastUsedAt !== undefined) info.lastUsedAt = iso(key.lastUsedAt);
  if (key.expiresAt !== undefined) info.expiresAt = iso(key.expiresAt);
  if (key.revokedAt !== undefined) info.revokedAt = iso(key.revokedAt);
  return info;
}

export function createAccountAdmin(options: AdminOptions): AccountAdmin {
  const { store, clock, plans } = options;
  const entry = (action: AuditEntry['action'], extra: Omit<AuditEntry, 'at' | 'action'> = {}): AuditEntry => ({
    at: new Date(clock()).toISOString(),
    action,
    ...extra,
  });
  const found = (ok: boolean | null | undefined, accountId: string) => {
    if (!ok) throw new MeteringAdminError('NOT_FOUND', `no account ${accountId}`);
  };
  const checkAccountId = (accountId: string) => {
    if (!ACCOUNT_ID_PATTERN.test(accountId)) throw new MeteringAdminError('NOT_FOUND', `no account ${accountId}`);
  };
  const checkPlan = (plan: string) => {
    if (!plans[plan]) throw new MeteringAdminError('INVALID', `unknown plan ${plan} (known: ${Object.keys(plans).join(', ')})`);
  };
  const checkUnits = (units: number) => {
    if (!Number.isSafeInteger(units) || units < 0) throw new MeteringAdminError('INVALID', 'units must be a whole number ≥ 0');
  };

  return {
    async createAccount(opts = {}) {
      const units = opts.units ?? FREE_UNITS;
      const plan = opts.plan ?? options.defaultPlan;
      checkUnits(units);
      checkPlan(plan);
      const accountId = newAccountId();
      const created = await store.createAccount(accountId, units, plan, entry('account.create', { detail: `units=${units} plan=${plan}` }));
      if (!created) throw new MeteringAdminError('INVALID', 'account id collision; try again');
      return { accountId };
    },
    async grantUnits(accountId, units) {
      checkAccountId(accountId);
      checkUnits(units);
      const balance = await store.grantUnits(accountId, units, clock(), entry('account.grant', { detail: `units=${units}` }));
      found(balance !== null, accountId);
      return { balance: balance! };
    },
    async setPlan(accountId, plan) {
      checkAccountId(accountId);
      checkPlan(plan);
      found(await store.setAccountField(accountId, 'plan', plan, entry('account.plan', { detail: plan })), accountId);
    },
    async setDisabled(accountId, disabled) {
      checkAccountId(accountId);
      const action = disabled ? 'account.disable' : 'account.enable';
      found(await store.setAccountField(accountId, 'disabled', disabled ? '1' : '0', entry(action)), accountId);
    },
    async deleteAccount(accountId) {
      checkAccountId(accountId);
      found(await store.deleteAccount(accountId), accountId);
    },
    async createKey(accountId, opts = {}): Promise<CreatedKey> {
      checkAccountId(accountId);
      const now = clock();
      const interfaces = [...(opts.scopes?.interfaces ?? [])];
      const operations = [...(opts.scopes?.operations ?? [])];
      if (interfaces.some((i) => !INTERFACES.includes(i))) throw new MeteringAdminError('INVALID', 'unknown interface in scopes');
      if (operations.some((op) => !OPERATION_NAME.test(op))) throw new MeteringAdminError('INVALID', 'bad operation name in scopes');
      let expiresAt: number | undefined;
      if (opts.expiresAt !== undefined) {
        expiresAt = Date.parse(opts.expiresAt);
        if (Number.isNaN(expiresAt)) throw new MeteringAdminError('INVALID', 'expiresAt is not a date');
      }
      const label = opts.label?.trim().slice(0, 100) || undefined;
      const generated = generateKey(accountId);
      const stored: StoredKey = {
        keyId: newKeyId(), hash: generated.hash, prefix: generated.displayPrefix, label, operations, interfaces,
        createdAt: now, expiresAt,
      };
      const outcome = await store.createKey(accountId, stored, options.maxActiveKeys, now, entry('key.create', { keyId: stored.keyId, detail: label }));
      found(outcome !== 'missing', accountId);
      if (outcome === 'limit') {
        throw new MeteringAdminError('KEY_LIMIT', `an account may have at most ${options.maxActiveKeys} active keys; revoke one first`);
      }
      return { key: generated.key, info: toKeyInfo(stored) };
    },
    async listKeys(accountId) {
      checkAccountId(accountId);
      const keys = await store.listKeys(accountId);
      found(keys !== null, accountId);
      return keys!.sort((a, b) => a.createdAt - b.createdAt || a.keyId.localeCompare(b.keyId)).map(toKeyInfo);
    },
    async revokeKey(accountId, keyId) {
      if (!ACCOUNT_ID_PATTERN.test(accountId)) return false;
      return store.revokeKey(accountId, keyId, clock(), entry('key.revoke', { keyId }));
    },
    async summary(accountId) {
      checkAccountId(accountId);
      const now = clock();
      const summary = await store.summary(accountId, now, recentDays(now));
      found(summary !== null, accountId);
      return { accountId, ...summary! };
    },
    async accountPlan(accountId) {
      checkAccountId(accountId);
      const plan = await store.accountPlan(accountId);
      found(plan !== null, accountId);
      return plan!;
    },
    async recentUsage(accountId, limit = 50) {
      if (!ACCOUNT_ID_PATTERN.test(accountId)) return [];
      const records = await store.recentUsage(accountId, Math.min(Math.max(1, Math.floor(limit)), 1000));
      return records.map((r) => ({ at: iso(r.at)!, operation: r.operation, interface: r.iface as Interface, keyId: r.keyId }));
    },
    async audit(accountId) {
      if (!ACCOUNT_ID_PATTERN.test(accountId)) return [];
      return store.audit(accountId);
    },
  };
}
