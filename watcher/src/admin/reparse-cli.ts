/** The `reparse` command alone, for a watcher pod: `node watcher/dist/admin/reparse-cli.js --domain US --kind product --since …`. */
import { runReparseCommand } from './reparse-command.js';

process.exitCode = await runReparseCommand(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
});
