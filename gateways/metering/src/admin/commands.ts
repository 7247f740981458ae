/**
 * The admin CLI's commands, separate from the entry point so tests run them in-process.
 * Output: ids and keys as plain lines (scriptable), everything else as JSON. Never logs a key except
 * the one `key create` was asked to print.
 */
import { parseArgs } from 'node:util';
import type { Interface } from '../api.js';
import { createMeteringFromEnv, MeteringAdminError, parseUsageQuery, usageCsv, type MeteringInstance } from '../index.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export const USAGE = `usage: npm run --silent admin -- <command>
  account create [--units N] [--plan P]     create an account (default 100 units, plan free); prints its id
  account show <accountId>                  balance, plan and usage per day and operation
  account grant <accountId> <units>         add units
  account plan <accountId> <plan>           set the plan (free, development, unlimited, or a configured one)
  account disable|enable <accountId>
  account delete <accountId>                delete the account with its keys and usage
  account audit <accountId>                 key and account events
  key create --units N [--plan P] [--label L]        new account with N units and a key; prints only the key
  key create --account <id> [--label L] [--interfaces rest,mcp] [--operations A,B] [--expires ISO]
  key list <accountId>
  key revoke <accountId> <keyId>
  usage show <accountId>
  usage recent <accountId> [--limit N]      latest charged calls (operation, interface, time, key id)
  usage history <accountId> [--from DATE|RFC3339] [--to DATE|RFC3339] [--granularity day|hour] [--group-by key,operation,interface] [--csv]
                                            calls and units per period from the record (default: the last 30 days by day)
ledger: LEDGER_REDIS_URL, else REDIS_URL (LEDGER_REDIS_CLUSTER=host:port,... for a Cluster);
record: LEDGER_DATABASE_URL (PostgreSQL), written first when set`;

class UsageError extends Error {}

function wholeNumber(value: string | undefined, what: string): number {
  if (value === undefined || !/^\d+$/.test(value)) throw new UsageError(`${what} must be a whole number`);
  return Number(value);
}

function need(value: string | undefined, what: string): string {
  if (!value) throw new UsageError(`missing ${what}`);
  return value;
}

const list = (value: string | undefined) => (value ? value.split(',').map((v) => v.trim()).filter(Boolean) : []);

async function run(metering: MeteringInstance, argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      units: { type: 'string' }, plan: { type: 'string' }, label: { type: 'string' }, account: { type: 'string' },
      interfaces: { type: 'string' }, operations: { type: 'string' }, expires: { type: 'string' }, limit: { type: 'string' },
      from: { type: 'string' }, to: { type: 'string' }, granularity: { type: 'string' }, 'group-by': { type: 'string' }, csv: { type: 'boolean' },
    },
  });
  const [group, command, first, second] = positionals;
  const admin = metering.admin;
  const json = (value: unknown) => io.out(JSON.stringify(value, null, 2));
  switch (`${group} ${command}`) {
    case 'account create': {
      const units = values.units === undefined ? undefined : wholeNumber(values.units, '--units');
      io.out((await admin.createAccount({ units, plan: values.plan })).accountId);
      return;
    }
    case 'account show':
    case 'usage show':
      return json(await admin.summary(need(first, 'accountId')));
    case 'usage recent':
      return json(await admin.recentUsage(need(first, 'accountId'), values.limit ? wholeNumber(values.limit, '--limit') : undefined));
    case 'usage history': {
      const accountId = need(first, 'accountId');
      if (!metering.usageHistory) throw new UsageError('usage history is read from the record: set LEDGER_DATABASE_URL');
      // The API's own reading of the range (dates, defaults, limits), so the CLI and the API agree.
      const parsed = parseUsageQuery({ from: values.from, to: values.to, granularity: values.granularity, groupBy: values['group-by'] }, Date.now());
      if (!parsed.ok) throw new UsageError(`--${parsed.parameter === 'groupBy' ? 'group-by' : parsed.parameter}: ${parsed.message}`);
      const rows = await metering.usageHistory(accountId, parsed.query);
      if (values.csv) io.out(usageCsv(rows, parsed.query.groupBy).trimEnd());
      else json(rows);
      return;
    }
    case 'account grant':
      return json(await admin.grantUnits(need(first, 'accountId'), wholeNumber(second, 'units')));
    case 'account plan':
      await admin.setPlan(need(first, 'accountId'), need(second, 'plan'));
      return;
    case 'account disable':
    case 'account enable':
      await admin.setDisabled(need(first, 'accountId'), command === 'disable');
      return;
    case 'account delete':
      await admin.deleteAccount(need(first, 'accountId'));
      return;
    case 'account audit':
      return json(await admin.audit(need(first, 'accountId')));
    case 'key create': {
      let accountId = values.account;
      if (!accountId) {
        accountId = (await admin.createAccount({ units: wholeNumber(values.units, '--units'), plan: values.plan })).accountId;
      }
      const created = await admin.createKey(accountId, {
        label: values.label,
        scopes: { interfaces: list(values.interfaces) as Interface[], operations: list(values.operations) },
        expiresAt: values.expires,
      });
      io.out(created.key);
      return;
    }
    case 'key list':
      return json(await admin.listKeys(need(first, 'accountId')));
    case 'key revoke': {
      const revoked = await admin.revokeKey(need(first, 'accountId'), need(second, 'keyId'));
      if (!revoked) throw new MeteringAdminError('NOT_FOUND', 'no such key');
      return;
    }
    default:
      throw new UsageError(group ? `unknown command: ${[group, command].filter(Boolean).join(' ')}` : 'no command');
  }
}

/** Runs one command; resolves with the exit code. */
export async function runAdminCli(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  if (argv.length === 0 || argv[0] === 'help' || argv.includes('--help')) {
    io.out(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  if (!env.LEDGER_REDIS_URL && !env.REDIS_URL && !env.LEDGER_REDIS_CLUSTER) {
    io.err('warning: no LEDGER_REDIS_URL or REDIS_URL set; using a throwaway in-memory ledger');
  }
  const metering = await createMeteringFromEnv(env);
  try {
    if (metering.storeKind === 'redis' && !(await metering.ready())) {
      io.err('error: the ledger (Redis) is unreachable');
      return 1;
    }
    await run(metering, argv, io);
    return 0;
  } catch (error) {
    if (error instanceof UsageError || (error instanceof Error && error.name === 'TypeError' && 'code' in error)) {
      io.err(`error: ${error.message}\n${USAGE}`);
      return 2;
    }
    io.err(`error: ${error instanceof MeteringAdminError ? error.message : String(error)}`);
    return 1;
  } finally {
    await metering.close();
  }
}
