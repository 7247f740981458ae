/** `retail`: the command-line client's process entry (bin/retail.js starts it). */
import { runCli } from './cli.js';

process.exitCode = await runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
