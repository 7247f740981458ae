/** @retail/cli as a library: the CLI as a function, its commands and exit codes. */
export { runCli } from './cli.js';
export { COMMANDS, type CliCommand, commandName, flagName } from './commands.js';
export { EXIT, type ExitCode } from './exit-codes.js';
export type { CliIo } from './io.js';
