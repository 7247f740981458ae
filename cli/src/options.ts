/**
 * The options every command takes besides its parameters, and how they resolve against the
 * environment: the key and base URL from RETAIL_API_KEY / RETAIL_BASE_URL, the output format from
 * whether stdout is a terminal.
 */
import { UsageError } from './exit-codes.js';
import { checkBaseUrl, type ApiSettings } from './http.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

/** [flag, help] of the common options; a parameter may not take one of these names (checked when the program is built). */
export const COMMON_OPTIONS = [
  ['--key <key>', 'API key (default: $RETAIL_API_KEY)'],
  ['--base <url>', `base URL of the API (default: $RETAIL_BASE_URL or ${DEFAULT_BASE_URL})`],
  ['--json', 'print the JSON response (the default when stdout is not a terminal; NDJSON in many mode)'],
  ['--table', 'print a table (the default on a terminal)'],
  ['--many <file>', 'one call per line of <file> (- for stdin): ASINs, GTINs, search terms, ...'],
  ['--by <parameter>', 'the parameter each line of --many fills (default: the first argument of the command)'],
  ['--concurrency <n>', 'calls in flight in many mode, 1 to 16 (default 4)'],
  ['--no-batch', 'many mode: one call per input even for a per-product lookup (default: batches of up to 100 through POST /api/retail/batch)'],
  ['--timeout <seconds>', 'longest wait for one answer, 1 to 600 (default 30)'],
] as const;

/** Option names as commander stores them (`--no-batch` as `batch`). */
export const COMMON_OPTION_NAMES: ReadonlySet<string> = new Set(COMMON_OPTIONS.map(([flag]) => flag.slice(2).split(' ')[0]!.replace(/^no-/, '')));

export interface CommonOptions {
  readonly key?: string;
  readonly base?: string;
  readonly json?: boolean;
  readonly table?: boolean;
  readonly many?: string;
  readonly by?: string;
  readonly concurrency?: string;
  /** false with --no-batch. */
  readonly batch?: boolean;
  readonly timeout?: string;
}

function wholeNumber(flag: string, text: string | undefined, min: number, max: number, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`);
  return Number(text);
}

export function apiSettings(options: CommonOptions, env: Readonly<Record<string, string | undefined>>): ApiSettings {
  const key = options.key ?? env.RETAIL_API_KEY;
  if (!key) throw new UsageError('no API key: pass --key or set RETAIL_API_KEY (npm start and npm run demo print a development key)');
  return {
    key,
    base: checkBaseUrl(options.base ?? (env.RETAIL_BASE_URL || DEFAULT_BASE_URL)),
    timeoutMs: wholeNumber('--timeout', options.timeout, 1, 600, 30) * 1000,
  };
}

export function concurrencyOf(options: CommonOptions): number {
  return wholeNumber('--concurrency', options.concurrency, 1, 16, 4);
}

/** JSON when asked, or when stdout is not a terminal; a table when asked, or on a terminal. */
export function outputFormat(options: CommonOptions, stdoutIsTerminal: boolean): 'json' | 'table' {
  if (options.json && options.table) throw new UsageError('--json and --table exclude each other');
  if (options.json) return 'json';
  if (options.table) return 'table';
  return stdoutIsTerminal ? 'table' : 'json';
}
