/**
 * `npm run admin -- console-operators …`: grants, revokes and lists the console's operator role
 * (operator-role.ts). The caller opens the user store the console uses and passes it in
 * (open-users.ts): the ledger's database (LEDGER_DATABASE_URL), in `npm start` its database
 * (DATABASE_URL, or its PGlite data directory, which one process at a time may open: stop `npm start`
 * first; app/src/console-operators.ts), or with `--redis` the ledger Redis of a console that keeps its
 * users there.
 */
import { parseArgs } from 'node:util';
import { setOperatorRole } from '../operator-role.js';
import type { UserStore } from '../store.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export type UserStoreLocation = 'database' | 'redis';

export interface OpenedUsers {
  readonly users: UserStore;
  close(): Promise<void>;
}

export const CONSOLE_OPERATORS_USAGE = `usage: npm run --silent admin -- console-operators <grant|revoke> --email EMAIL [--by NAME] [--redis]
       npm run --silent admin -- console-operators <list|history> [--limit N] [--redis]
  grant/revoke the console's operator role (the Operator view of archived pages); list its holders;
  history: every grant and revocation, newest first. Users are read from LEDGER_DATABASE_URL, else
  from npm start's database (DATABASE_URL, else its PGlite data directory: stop npm start first);
  --redis: from LEDGER_REDIS_URL (else REDIS_URL), for a console that keeps its users only in Redis`;

class UsageError extends Error {}

function parse(argv: string[]): { command: string; email: string; by: string | undefined; limit: number; location: UserStoreLocation } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { email: { type: 'string' }, by: { type: 'string' }, limit: { type: 'string' }, redis: { type: 'boolean' } },
  });
  const [command, ...extra] = positionals;
  if (!command || !['grant', 'revoke', 'list', 'history'].includes(command) || extra.length > 0) throw new UsageError('expected one of grant, revoke, list, history');
  if ((command === 'grant' || command === 'revoke') && !values.email?.trim()) throw new UsageError(`${command} needs --email`);
  if (values.limit !== undefined && !/^[1-9]\d{0,3}$/.test(values.limit)) throw new UsageError('--limit must be a whole number from 1 to 9999');
  return { command, email: values.email ?? '', by: values.by, limit: Number(values.limit ?? 50), location: values.redis ? 'redis' : 'database' };
}

export async function runConsoleOperatorsCommand(
  argv: string[],
  io: CliIo,
  open: (location: UserStoreLocation) => Promise<OpenedUsers>,
  context: { readonly actor: string; readonly now?: () => Date },
): Promise<number> {
  let args;
  try {
    args = parse(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n${CONSOLE_OPERATORS_USAGE}`);
    return 2;
  }
  let opened;
  try {
    opened = await open(args.location);
  } catch (error) {
    // Where the users are is not reachable or not configured: say so, no stack trace.
    io.err(`cannot open the console's users: ${(error as Error).message}`);
    return 1;
  }
  try {
    const { users } = opened;
    if (args.command === 'list') {
      for (const user of await users.listOperators()) io.out(JSON.stringify({ email: user.email, userId: user.userId, accountId: user.accountId }));
      return 0;
    }
    if (args.command === 'history') {
      for (const event of await users.operatorEvents(args.limit)) io.out(JSON.stringify(event));
      return 0;
    }
    const operator = args.command === 'grant';
    const actor = args.by?.trim() ? `admin-cli:${args.by.trim()}` : context.actor;
    const result = await setOperatorRole(users, { email: args.email, operator, actor, at: context.now?.() ?? new Date() });
    if (result.outcome === 'no-user') {
      io.err(`no console user with the email ${JSON.stringify(args.email.trim())} (they sign up, or sign in once, first)`);
      return 1;
    }
    if (result.outcome === 'unchanged') {
      io.err(`${result.user.email} ${operator ? 'is already' : 'is not'} an operator: nothing changed`);
      return 0;
    }
    // The audit entry as recorded: the line an operator's own log keeps too.
    io.out(JSON.stringify(result.event));
    return 0;
  } finally {
    await opened.close();
  }
}
