/**
 * The servers createMeteringFromEnv (index.ts) connects to, by the variables that name them, for the
 * start probe of every process that meters (the gateways, the console, the watcher): the ledger's Redis
 * (LEDGER_REDIS_URL, else REDIS_URL; only the one in use) and the ledger's record (LEDGER_DATABASE_URL).
 * The record is optional at start by design (docs/metering.md, "A process starts without PostgreSQL"),
 * so the probe stops the process for it only when its host name does not exist.
 */
import type { ServerSetting } from '@retail/contract/start-failure';

export function meteringServers(env: Readonly<Record<string, string | undefined>>): ServerSetting[] {
  const ledger = env.LEDGER_REDIS_URL ? 'LEDGER_REDIS_URL' : 'REDIS_URL';
  return [
    { variable: ledger, url: env[ledger], otherwise: 'unset it to keep the ledger in this process (one replica only)' },
    {
      variable: 'LEDGER_DATABASE_URL',
      url: env.LEDGER_DATABASE_URL,
      otherwise: 'unset it to run without the ledger\'s record',
      optionalAtStart: true,
    },
  ];
}
