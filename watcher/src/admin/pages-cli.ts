/** The `pages` command alone, for a watcher pod: `node watcher/dist/admin/pages-cli.js --domain US --kind product --asin …`. */
import { runPagesCommand } from './pages-command.js';

process.exitCode = await runPagesCommand(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
});
