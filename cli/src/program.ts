/**
 * The command line (commander): `retail <command> [argument] [--parameter value ...]`, one command
 * per operation of the registry, with the common options. Help lists every command (`retail
 * --help`) and every parameter with its declared rules (`retail <command> --help`); a command line
 * commander refuses (unknown flag or command, a missing flag value, an extra argument) is one line
 * on stderr and exit 2.
 */
import { Command, CommanderError, Option } from 'commander';
import { BATCH_SIZE, batchOperationName } from './batch.js';
import { COMMANDS, type CliCommand, describeParameter, flagName } from './commands.js';
import { EXIT, type ExitCode, UsageError } from './exit-codes.js';
import type { CliIo } from './io.js';
import { type ListenOptions, runListen } from './listen.js';
import { apiSettings, COMMON_OPTIONS, COMMON_OPTION_NAMES, type CommonOptions } from './options.js';
import type { CliValues } from './request.js';

export type RunCommand = (command: CliCommand, values: CliValues, options: CommonOptions) => Promise<ExitCode>;

/** The commands many mode sends in batches. */
const BATCHABLE = COMMANDS.filter((command) => batchOperationName(command.op) !== undefined).map((command) => command.name);

const GENERAL_HELP = `
Environment:
  RETAIL_API_KEY    the API key (created in the console at /console; npm start prints a development key)
  RETAIL_BASE_URL   the API's base URL (default http://127.0.0.1:8080)

Exit codes: 0 success, 2 usage, 3 refused by the service (4xx), 4 failure of the service (5xx),
5 no answer (refused connection, DNS, timeout). In many mode the worst item decides.

Many mode sends the inputs of these commands in batches of up to ${BATCH_SIZE} through POST /api/retail/batch
(one unit per success, as single calls):
  ${BATCHABLE.join(', ')}
The other commands, and any with --no-batch, make one call per input; output and exit codes are the same.

Examples:
  retail product B0FXTDE001 --domain DE
  retail search "espresso machine" --domain US --json | jq '.data.retailProductSearchResults'
  retail product --many asins.txt --domain DE > products.ndjson
  retail product --help      (every command lists its parameters and their rules)
  retail listen --watch <id> --forward-to http://127.0.0.1:3000/hook   (webhooks on this machine)`;

function usageLine(command: CliCommand): string {
  const op = command.op;
  const batch = batchOperationName(op) !== undefined ? `\nMany mode: batches of up to ${BATCH_SIZE} inputs through POST /api/retail/batch (--no-batch: one call per input)` : '';
  return `\nREST: ${op.httpMethod} ${op.restPath} (${op.billing === 'metered' ? 'one unit per successful call' : 'free'})${batch}`;
}

function addCommand(program: Command, command: CliCommand, run: RunCommand, setExit: (code: ExitCode) => void): void {
  const sub = program.command(command.name).description(command.op.summary);
  for (const p of command.positionals) sub.argument(`[${flagName(p)}]`, `the ${p.name} parameter, as --${flagName(p)}`);
  for (const p of command.op.parameters) {
    if (COMMON_OPTION_NAMES.has(p.name)) throw new Error(`parameter ${p.name} of ${command.op.name} collides with a common option of the CLI`);
    sub.addOption(new Option(p.kind === 'boolean' ? `--${flagName(p)}` : `--${flagName(p)} <value>`, describeParameter(p)).helpGroup('Parameters:'));
  }
  for (const [flag, help] of COMMON_OPTIONS) sub.addOption(new Option(flag, help).helpGroup('Options:'));
  sub.addHelpText('after', usageLine(command));
  sub.action(async (...args: unknown[]) => {
    const options = sub.opts<Record<string, string | true | undefined>>();
    const values: Record<string, string | true> = {};
    for (const p of command.op.parameters) {
      const value = options[p.name];
      if (value !== undefined) values[p.name] = value;
    }
    command.positionals.forEach((p, i) => {
      const given = args[i];
      if (typeof given !== 'string') return;
      if (values[p.name] !== undefined) throw new UsageError(`${p.name} is given twice (as an argument and as --${flagName(p)})`);
      values[p.name] = given;
    });
    setExit(await run(command, values, options));
  });
}

/** Until the person at the terminal stops the command (Ctrl-C) or the process is told to stop. */
function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

/** `retail listen`: not an operation of the API but a receiver of its webhooks (listen.ts). */
function addListen(program: Command, io: CliIo, setExit: (code: ExitCode) => void): void {
  const sub = program.command('listen').description('Receives webhooks on this machine: verifies each signature (Standard Webhooks), prints the event and forwards it.');
  sub.option('--forward-to <url>', 'POST each event, with its signature headers, to this URL (e.g. http://127.0.0.1:3000/hook)');
  sub.option('--watch <id>', 'point this watch\'s webhook at the listener (through the API) and verify with the secret it answers');
  sub.option('--secret <whsec>', 'verify with this secret: a target set by hand, e.g. a job created with the listener\'s URL');
  sub.option('--port <n>', 'the port to listen on, on 127.0.0.1 (default: a free one)');
  for (const [flag, help] of COMMON_OPTIONS.filter(([flag]) => /^--(key|base|timeout) /.test(flag))) sub.option(flag, help);
  sub.addHelpText('after', '\nThe service must allow webhooks to this machine: npm start and npm run demo do (their banner says so).');
  sub.action(async () => {
    const options = sub.opts<ListenOptions & CommonOptions>();
    const api = options.key ?? io.env.RETAIL_API_KEY ? apiSettings(options, io.env) : undefined;
    setExit(await runListen(options, api, io, untilStopped()));
  });
}

/** The program; `run` executes a parsed command and returns its exit code. */
export function buildProgram(io: CliIo, run: RunCommand, setExit: (code: ExitCode) => void): Command {
  const program = new Command('retail')
    .description('Command-line client of the retail data service (REST). Every command is an operation of the API.')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => void io.stdout.write(text),
      writeErr: (text) => void io.stderr.write(text),
      // One line: commander puts its "(Did you mean ...?)" suggestion on a line of its own.
      outputError: (text, write) => write(`${text.trim().replace(/\s*\n\s*/g, ' ')}\n`),
    })
    .addHelpText('after', GENERAL_HELP);
  for (const command of COMMANDS) addCommand(program, command, run, setExit);
  addListen(program, io, setExit);
  return program;
}

/** Parses `argv` (without node and the script) and runs the command; commander's refusals exit 2, its help 0. */
export async function runProgram(argv: readonly string[], io: CliIo, run: RunCommand): Promise<ExitCode> {
  let exitCode: ExitCode = EXIT.ok;
  const program = buildProgram(io, run, (code) => {
    exitCode = code;
  });
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
}
