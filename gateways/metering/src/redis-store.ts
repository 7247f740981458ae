/**
 * The ledger on Redis (single node or Cluster): every store method is one Lua script, sent with
 * EVALSHA (ioredis `defineCommand` loads the script on a NOSCRIPT reply). Commands fail fast while
 * the connection is down (no offline queue) so callers can fail closed with a 503.
 */
import { Cluster, Redis } from 'ioredis';
import type { AuditEntry, Interface, UsageDay } from './api.js';
import { plansForLua } from './plans.js';
import { LEDGER_SCRIPTS, scriptKeyCount, scriptSource, type LedgerScriptName } from './lua.js';
import { DAY_COUNTER_TTL_MS, usageDay, type LedgerStore, type StoreOptions, type StoredKey, type AdmitCode } from './store.js';

export interface RedisStoreOptions extends StoreOptions {
  readonly redisUrl?: string;
  /** Cluster startup nodes ("host:port"); when set, `redisUrl` is ignored. */
  readonly cluster?: readonly string[];
  /** Prefix of every Redis key; must not contain braces (the `{accountId}` hash tag follows it). */
  readonly keyPrefix: string;
  readonly commandTimeoutMs?: number;
  /**
   * How long a settle is retried (wall clock) after a timeout or a lost connection before its gateway
   * answers "0 units charged". The script refuses to charge once this has passed by the server's clock,
   * so a settle still in flight can never contradict that answer.
   */
  readonly settleWindowMs: number;
  /** Called before each retry of a settle (metrics). */
  readonly onSettleRetry?: () => void;
  /**
   * The Redis stream each charging settle appends its usage row to, in the same script (the record's
   * durable hand-off, record/usage-stream.ts). Single node only: on a Cluster the stream would sit in
   * another slot than the account.
   */
  readonly usageStream?: string;
}

/**
 * The gateways' and Redis's clocks may disagree by this much (NTP keeps them far closer); a gateway
 * gives up on a settle only once the server must have passed its `notAfter` too.
 */
export const SETTLE_CLOCK_SKEW_MS = 2_000;

/** Thrown when a settle could not land within its window; nothing was or will be charged for it. */
export class SettleAbandonedError extends Error {
  constructor(cause: unknown) {
    super('the ledger did not answer within the settle window; the call is not charged', { cause });
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type ScriptCall = (key: string, ...args: Array<string | number>) => Promise<unknown>;
type LedgerClient = (Redis | Cluster) & Record<LedgerScriptName, ScriptCall>;

function connect(options: RedisStoreOptions): LedgerClient {
  const common = {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 2_000,
  };
  let client: Redis | Cluster;
  if (options.cluster && options.cluster.length > 0) {
    const nodes = options.cluster.map((node) => {
      const [host, port] = node.replace(/^redis:\/\//, '').split(':');
      return { host: host || '127.0.0.1', port: Number(port || 6379) };
    });
    client = new Cluster(nodes, { lazyConnect: true, enableOfflineQueue: false, redisOptions: common });
  } else {
    client = new Redis(options.redisUrl ?? 'redis://127.0.0.1:6379', common);
  }
  // Errors surface on the command that hit them; an unhandled 'error' event must not crash the process.
  client.on('error', () => {});
  for (const name of Object.keys(LEDGER_SCRIPTS) as LedgerScriptName[]) {
    client.defineCommand(name, { numberOfKeys: scriptKeyCount(name), lua: scriptSource(name) });
  }
  return client as LedgerClient;
}

function flatToRecord(flat: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const list = Array.isArray(flat) ? (flat as string[]) : [];
  for (let i = 0; i + 1 < list.length; i += 2) out[list[i]!] = list[i + 1]!;
  return out;
}

function optionalNumber(value: string | undefined): number | undefined {
  return value === undefined || value === '' ? undefined : Number(value);
}

function splitList(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

function toStoredKey(fields: Record<string, string>): StoredKey {
  return {
    keyId: fields.keyId ?? '',
    hash: fields.hash ?? '',
    prefix: fields.prefix ?? '',
    label: fields.label ? fields.label : undefined,
    operations: splitList(fields.ops),
    interfaces: splitList(fields.ifaces) as Interface[],
    createdAt: Number(fields.createdAt ?? 0),
    lastUsedAt: optionalNumber(fields.lastUsedAt),
    expiresAt: optionalNumber(fields.expiresAt),
    revokedAt: optionalNumber(fields.revokedAt),
  };
}

/**
 * How long a late debit's mark is kept against applying it twice: longer than a settle's answer, since
 * the batch that carries it can be delivered again after a consumer's death (taken over after 30 s).
 */
const LATE_DEBIT_KEEP_MS = 3_600_000;

export function createRedisStore(options: RedisStoreOptions): LedgerStore {
  if (/[{}]/.test(options.keyPrefix)) throw new Error('keyPrefix must not contain braces');
  const client = connect(options);
  const plansJson = plansForLua(options.plans);
  const base = (accountId: string) => `${options.keyPrefix}{${accountId}}:`;
  const call = (name: LedgerScriptName, accountId: string, ...args: Array<string | number>) =>
    client[name](`${base(accountId)}acct`, base(accountId), ...args);
  const auditJson = (entry: AuditEntry) => JSON.stringify(entry);
  let connecting: Promise<boolean> | undefined;

  return {
    kind: 'redis',
    async admit(input) {
      const reply = (await call(
        'ledgerAdmit', input.accountId, input.keyHash, input.iface, input.operations.join(','),
        input.shapeValid ? '1' : '0', input.now, input.holdId, input.holdExpiresAt, input.units, plansJson,
        options.defaultPlan, input.mode, input.rateCost,
      )) as Array<string | undefined>;
      const [code, keyId, plan, tokens, balance] = reply;
      return { code: code as AdmitCode, keyId, plan, tokens: optionalNumber(tokens), balance: optionalNumber(balance) };
    },
    async settle(input) {
      // Wall clock, not the injected one: the script compares it with the server's TIME.
      const notAfter = Date.now() + options.settleWindowMs;
      for (let attempt = 0; ; attempt++) {
        try {
          const acct = `${base(input.accountId)}acct`;
          const [charged, balance, epoch] = (await client.ledgerSettle(
            acct, options.usageStream ?? acct, base(input.accountId), input.holdId, input.keyId, input.iface, input.chargedOperations.join(','),
            input.now, input.day, options.lastUsedIntervalMs, options.usageRetention, DAY_COUNTER_TTL_MS,
            notAfter, options.settleAnswerTtlMs, options.usageStream ? input.accountId : '',
          )) as [string, string, string | undefined];
          // The epoch only for a restored account: the answer of a settle stays what it was otherwise.
          return { charged: Number(charged), balance: Number(balance), ...(Number(epoch ?? 0) > 0 && { epoch: Number(epoch) }) };
        } catch (error) {
          // A timed-out settle may still run later (a frozen server works through its input when it
          // resumes), and a lost connection may or may not have delivered it: the same settle is sent
          // again, which is harmless (exactly once by hold id), until the window has surely passed.
          if (Date.now() > notAfter + SETTLE_CLOCK_SKEW_MS) throw new SettleAbandonedError(error);
          options.onSettleRetry?.();
          await sleep(Math.min(1_000, 50 * 2 ** Math.min(attempt, 5)));
        }
      }
    },
    async createAccount(accountId, units, plan, audit) {
      const created = await call('ledgerCreateAccount', accountId, units, plan, audit.at, auditJson(audit), options.auditRetention);
      return created === 1;
    },
    async restoreAccount(snapshot, audit) {
      const text = (n: number | undefined) => (n === undefined ? '' : String(n));
      const keys = snapshot.keys.map((key) => ({
        keyId: key.keyId, hash: key.hash, prefix: key.prefix, label: key.label ?? '', ops: key.operations.join(','),
        ifaces: key.interfaces.join(','), createdAt: String(key.createdAt), expiresAt: text(key.expiresAt), revokedAt: text(key.revokedAt),
      }));
      const restored = await call(
        'ledgerRestoreAccount', snapshot.accountId, snapshot.balance, snapshot.plan, snapshot.disabled ? '1' : '0', snapshot.createdAt,
        JSON.stringify(keys), auditJson(audit), options.auditRetention, snapshot.epoch ?? 0,
      );
      return restored === 1;
    },
    async lateDebit(accountId, debits, now) {
      if (debits.length === 0) return 0;
      const args = debits.flatMap((d) => [d.holdId, d.units, d.chargedEpoch, d.recordedEpoch]);
      return Number(await call('ledgerLateDebit', accountId, now, LATE_DEBIT_KEEP_MS, ...args));
    },
    async grantUnits(accountId, units, now, audit) {
      const balance = await call('ledgerGrant', accountId, units, now, auditJson(audit), options.auditRetention);
      return balance === null ? null : Number(balance);
    },
    async setAccountField(accountId, field, value, audit) {
      return (await call('ledgerSetField', accountId, field, value, auditJson(audit), options.auditRetention)) === 1;
    },
    async deleteAccount(accountId) {
      return (await call('ledgerDeleteAccount', accountId)) === 1;
    },
    async createKey(accountId, key, maxActiveKeys, now, audit) {
      return (await call(
        'ledgerCreateKey', accountId, key.keyId, key.hash, key.prefix, key.label ?? '', key.operations.join(','),
        key.interfaces.join(','), key.createdAt, key.expiresAt ?? '', maxActiveKeys, now, auditJson(audit),
        options.auditRetention,
      )) as 'ok' | 'missing' | 'limit';
    },
    async listKeys(accountId) {
      const reply = await call('ledgerListKeys', accountId);
      if (reply === null) return null;
      return (reply as unknown[]).map((flat) => toStoredKey(flatToRecord(flat)));
    },
    async revokeKey(accountId, keyId, now, audit) {
      return (await call('ledgerRevokeKey', accountId, keyId, now, auditJson(audit), options.auditRetention)) === 1;
    },
    async summary(accountId, now, days) {
      const reply = (await call('ledgerSummary', accountId, now, ...days)) as unknown[] | null;
      if (reply === null) return null;
      const usage: UsageDay[] = [];
      for (let i = 2; i + 1 < reply.length; i += 2) {
        for (const [field, calls] of Object.entries(flatToRecord(reply[i + 1]))) usage.push(usageDay(String(reply[i]), field, Number(calls)));
      }
      return { balance: Number(reply[0]), plan: String(reply[1]), usage };
    },
    async accountPlan(accountId) {
      return client.hget(`${base(accountId)}acct`, 'plan');
    },
    async recentUsage(accountId, limit) {
      const entries = await client.xrevrange(`${base(accountId)}usage`, '+', '-', 'COUNT', limit);
      return entries.map(([, flat]) => {
        const fields = flatToRecord(flat);
        return { at: Number(fields.at), operation: fields.op ?? '', iface: fields.iface ?? '', keyId: fields.key ?? '' };
      });
    },
    async audit(accountId) {
      const entries = await client.lrange(`${base(accountId)}audit`, 0, -1);
      return entries.map((entry) => JSON.parse(entry) as AuditEntry);
    },
    async ready() {
      connecting ??= client.connect().then(
        () => true,
        () => false,
      );
      await connecting;
      return client.status === 'ready';
    },
    async close() {
      client.disconnect();
    },
  };
}
