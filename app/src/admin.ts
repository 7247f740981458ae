/**
 * `npm run admin -- <command>`: one entry point for operators. `pages` finds an archived marketplace
 * page (the watcher's database, docs/page-archive.md), `reparse` re-reads archived pages with the
 * current parser and repairs the history that came from them, `console-operators` grants and revokes
 * the console's operator role (docs/console.md); every other command administers accounts and
 * keys on the ledger (gateways/metering/src/admin).
 */
import { runAdminCli } from '@retail/metering/admin/commands';
import { PAGES_USAGE, runPagesCommand } from '@retail/watcher/admin/pages-command';
import { REPARSE_USAGE, runReparseCommand } from '@retail/watcher/admin/reparse-command';
import { CONSOLE_OPERATORS_USAGE, runConsoleOperatorsCommand } from '@retail/console';
import { adminActor, openConsoleUsers } from './console-operators.js';

const io = {
  out: (line: string) => process.stdout.write(line + '\n'),
  err: (line: string) => process.stderr.write(line + '\n'),
};
const [command, ...rest] = process.argv.slice(2);
if (command === 'pages') {
  process.exitCode = await runPagesCommand(rest, process.env, io);
} else if (command === 'reparse') {
  process.exitCode = await runReparseCommand(rest, process.env, io);
} else if (command === 'console-operators') {
  process.exitCode = await runConsoleOperatorsCommand(rest, io, (location) => openConsoleUsers(location, process.env), { actor: adminActor(process.env) });
} else {
  process.exitCode = await runAdminCli(process.argv.slice(2), process.env, io);
  if (command === undefined || command === 'help') io.out(`${PAGES_USAGE}\n${REPARSE_USAGE}\n${CONSOLE_OPERATORS_USAGE}`);
}
