/** `npm run admin -- <command>`: account and key administration against the ledger Redis. */
import { runAdminCli } from './commands.js';

const code = await runAdminCli(process.argv.slice(2), process.env, {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
});
process.exitCode = code;
