/**
 * Runs one command: one call, or in many mode one call per input line (or per batch of up to 100 for
 * a per-product lookup, batch.ts), 429s honoured, and writes the answers as JSON or tables. Returns
 * the exit code.
 */
import { readFile } from 'node:fs/promises';
import type { CliCommand } from './commands.js';
import { EXIT, type ExitCode, UsageError, exitCodeOfStatus, worstExitCode } from './exit-codes.js';
import { type ApiAnswer, UnreachableError, send } from './http.js';
import { type CliIo, readAll } from './io.js';
import { BATCH_SIZE, batchCall, batchOperationName } from './batch.js';
import { type ItemOutcome, inputLines, perInput, runMany } from './many.js';
import { type CommonOptions, apiSettings, concurrencyOf, outputFormat } from './options.js';
import { createProgress } from './progress.js';
import { honourRateLimits } from './rate-limit.js';
import { renderError, envelopeEntries, firstErrorMessage } from './render/error.js';
import type { Json } from './render/flatten.js';
import { type ManyRow, renderManyTable, renderTable } from './render/table.js';
import { type CliValues, buildRequest } from './request.js';

const DEFAULT_WIDTH = 100;

/** The `data` root of a success body (`retailProduct`), or the body when it has none. */
function dataOf(command: CliCommand, body: unknown): Json {
  const data = (body as { data?: Record<string, Json> } | null)?.data;
  return data && command.op.dataRoot in data ? data[command.op.dataRoot]! : (body as Json);
}

function writeSingle(command: CliCommand, answer: ApiAnswer, format: 'json' | 'table', io: CliIo): void {
  if (format === 'json') io.stdout.write(`${JSON.stringify(answer.body, null, 2)}\n`);
  else if (answer.status < 400) io.stdout.write(`${renderTable(dataOf(command, answer.body), io.stdout.columns ?? DEFAULT_WIDTH)}\n`);
  else io.stderr.write(`${renderError(answer)}\n`);
}

function outcomeExitCode(outcome: ItemOutcome): ExitCode {
  return 'answer' in outcome ? exitCodeOfStatus(outcome.answer.status) : EXIT.unreachable;
}

/** One NDJSON line per input: the input, the status and the data or the envelope's errors. */
function ndjsonLine(command: CliCommand, outcome: ItemOutcome): string {
  if (!('answer' in outcome)) return JSON.stringify({ input: outcome.input, status: null, errors: [{ message: outcome.unreachable }] });
  const { answer } = outcome;
  return JSON.stringify(answer.status < 400 ? { input: outcome.input, status: answer.status, data: dataOf(command, answer.body) } : { input: outcome.input, status: answer.status, errors: envelopeEntries(answer) });
}

function manyRow(command: CliCommand, outcome: ItemOutcome): ManyRow {
  if (!('answer' in outcome)) return { input: outcome.input, status: 'unreachable', error: outcome.unreachable };
  const { answer } = outcome;
  const status = String(answer.status);
  return answer.status < 400 ? { input: outcome.input, status, data: dataOf(command, answer.body) } : { input: outcome.input, status, error: firstErrorMessage(answer) };
}

/** The parameter lines of --many fill: --by, else the command's first argument. */
function manyParameter(command: CliCommand, by: string | undefined): string {
  // --by takes the flag's name (search-term) or the wire name (searchTerm).
  const name = by !== undefined ? by.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase()) : command.positionals[0]?.name;
  if (!name) throw new UsageError(`${command.name} takes no argument for --many to fill; name one with --by`);
  const p = command.op.parameters.find((q) => q.name === name);
  if (!p || p.kind === 'object' || p.kind === 'object-list' || p.kind === 'boolean') throw new UsageError(`--by ${name}: ${command.name} has no text parameter of that name`);
  return p.name;
}

/**
 * How often the run was told to wait and for how long in all, told on stderr at the end. Waits that
 * overlap (several calls refused at once) count once: the time the run's calls were held back.
 */
function waitCounter(now: () => number = Date.now) {
  let times = 0;
  let heldMs = 0;
  let heldUntil = 0;
  return {
    add(seconds: number) {
      times += 1;
      const from = Math.max(now(), heldUntil);
      const until = now() + seconds * 1000;
      if (until > from) heldMs += until - from;
      heldUntil = Math.max(heldUntil, until);
    },
    report(io: CliIo) {
      if (times > 0) io.stderr.write(`rate limited ${times} times: held back ${Math.round(heldMs / 1000)} s in all, as Retry-After asked\n`);
    },
  };
}

async function readInputs(source: string, io: CliIo): Promise<string[]> {
  try {
    return inputLines(source === '-' ? await readAll(io.stdin) : await readFile(source, 'utf8'));
  } catch (error) {
    throw new UsageError(`--many ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

export async function runCommand(command: CliCommand, values: CliValues, options: CommonOptions, io: CliIo): Promise<ExitCode> {
  const settings = apiSettings(options, io.env);
  const format = outputFormat(options, io.stdout.isTTY === true);
  buildRequest(command.op, values); // refuses bad JSON values before anything is sent
  if (options.many === undefined) {
    if (options.by !== undefined) throw new UsageError('--by goes with --many');
    if (options.batch === false) throw new UsageError('--no-batch goes with --many');
    const waits = waitCounter();
    const call = honourRateLimits(() => send(settings, buildRequest(command.op, values)), { onWait: waits.add });
    try {
      const answer = await call();
      writeSingle(command, answer, format, io);
      waits.report(io);
      return exitCodeOfStatus(answer.status);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      io.stderr.write(`error: ${error.message}\n`);
      return EXIT.unreachable;
    }
  }
  const parameter = manyParameter(command, options.by);
  if (values[parameter] !== undefined) throw new UsageError(`${parameter} is given on the command line and by --many; give it once`);
  const concurrency = concurrencyOf(options);
  const inputs = await readInputs(options.many, io);
  const progress = createProgress(io.stderr, inputs.length);
  const waits = waitCounter();
  const onWait = (seconds: number) => {
    waits.add(seconds);
    progress.waiting(seconds);
  };
  const batchOperation = options.batch === false ? undefined : batchOperationName(command.op);
  const call = batchOperation
    ? batchCall(settings, command.op, batchOperation, values, parameter, { onWait })
    : perInput(honourRateLimits((input: string) => send(settings, buildRequest(command.op, { ...values, [parameter]: input })), { onWait }));
  const outcomes = await runMany(inputs, call, {
    concurrency,
    chunkSize: batchOperation ? BATCH_SIZE : 1,
    progress,
    onResult: (outcome) => {
      if (format === 'json') io.stdout.write(`${ndjsonLine(command, outcome)}\n`);
    },
  });
  if (format === 'table' && outcomes.length > 0) io.stdout.write(`${renderManyTable(outcomes.map((o) => manyRow(command, o)), io.stdout.columns ?? DEFAULT_WIDTH)}\n`);
  waits.report(io);
  const failed = outcomes.filter((o) => outcomeExitCode(o) !== EXIT.ok).length;
  if (failed > 0) io.stderr.write(`${failed} of ${outcomes.length} failed\n`);
  return worstExitCode(outcomes.map(outcomeExitCode));
}
