/**
 * The CLI as a function: parses `argv`, runs the command and resolves with the exit code. A
 * refused command line is a UsageError (one line, exit 2); anything else unexpected propagates (a
 * fault of the CLI: main.ts lets Node print it and exit 1).
 */
import { EXIT, UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { runProgram } from './program.js';
import { runCommand } from './run.js';

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await runProgram(argv, io, (command, values, options) => runCommand(command, values, options, io));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`error: ${error.message}\n`);
    return EXIT.usage;
  }
}
