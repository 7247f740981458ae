/**
 * What the CLI tests run against: the one-process stack (`npm start`'s composition) on the replay
 * server's fixture pages with a real redis-server as its ledger, so the test can open accounts on
 * plans of its own through the metering library on the same ledger, and a runner that starts
 * `cli/bin/retail.js` as a user's shell would.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type Metering, createMetering, parsePlans } from '@retail/metering';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';
import { type RedisServer, startRedis } from '../harness/redis.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = 'cli/bin/retail.js';
/** What the bin runs in the repository (cli/bin/retail.js). */
const SOURCE = 'cli/src/main.ts';

/**
 * A plan slow enough to be refused within a few calls (2 calls/s, bursts of 2); one whose bucket a
 * batch of 100 leaves about 2 s in debt (50 calls/s, bursts of 2); and one never refused.
 */
const PLANS = '{"cli-tight": {"ratePerSecond": 2, "burst": 2}, "cli-burst": {"ratePerSecond": 50, "burst": 2}, "cli-open": "unlimited"}';

export interface CliStack {
  readonly baseUrl: string;
  readonly metering: Metering;
  /** A key on a plan of `plan` with `units` units; its account id. */
  key(plan: 'cli-tight' | 'cli-burst' | 'cli-open', units: number): Promise<{ key: string; accountId: string }>;
  balance(accountId: string): Promise<number>;
  stop(): Promise<void>;
}

export async function startCliStack(): Promise<CliStack> {
  const redis: RedisServer = await startRedis();
  let running: OneProcess | undefined;
  try {
    running = await startOneProcess({ REDIS_URL: redis.url, METERING_PLANS: PLANS });
    const metering = await createMetering({ redisUrl: redis.url, plans: parsePlans(PLANS) });
    const stack = running;
    return {
      baseUrl: stack.stack.url,
      metering,
      async key(plan, units) {
        const { accountId } = await metering.admin.createAccount({ units, plan });
        const { key } = await metering.admin.createKey(accountId, { label: 'cli test' });
        return { key, accountId };
      },
      balance: async (accountId) => (await metering.admin.summary(accountId)).balance,
      async stop() {
        await metering.close();
        await stack.stop();
        await redis.stop();
      },
    };
  } catch (error) {
    await running?.stop();
    await redis.stop();
    throw error;
  }
}

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * The command line of `retail`: the bin as a user's shell runs it, or the source it runs, started the
 * way the bin starts it. The bin is one more Node start per call (over half a second on a busy
 * machine); the tests of the bin itself go through it, the rest run the source directly.
 */
const COMMAND_LINES = {
  bin: [BIN],
  source: ['--conditions=source', '--import', 'tsx', SOURCE],
} as const;

/** Runs `retail <args>` as a process with piped stdout (so JSON is the default), feeding `stdin`. */
export function runRetail(args: readonly string[], env: Record<string, string>, stdin = '', via: keyof typeof COMMAND_LINES = 'source'): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...COMMAND_LINES[via], ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(stdin);
  });
}
