/**
 * The console-operators command alone, for a console pod (no PGlite there): `node
 * gateways/console/dist/admin/operators-cli.js grant --email …` against LEDGER_DATABASE_URL, or
 * `--redis`. In development it is `npm run admin -- console-operators …` (app/src/admin.ts).
 */
import { adminActor, openConsoleUsers } from './open-users.js';
import { runConsoleOperatorsCommand } from './operators-command.js';

process.exitCode = await runConsoleOperatorsCommand(
  process.argv.slice(2),
  { out: (line) => process.stdout.write(line + '\n'), err: (line) => process.stderr.write(line + '\n') },
  (location) => openConsoleUsers(location, process.env),
  { actor: adminActor(process.env) },
);
