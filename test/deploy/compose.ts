/**
 * compose.yaml as docker compose reads it, for tests on a machine without a docker engine: YAML with
 * merge keys, then Compose's interpolation of every string value from an environment (.env). The
 * interpolation is ours because no kept JavaScript implementation of it exists (compose-go is Go, and
 * its npm wrapper downloads a binary at install); it covers the Compose Specification's forms:
 * `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`,
 * `${VAR:+value}` and `${VAR+value}`, without nesting.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { parse } from 'yaml';
import { REPO_ROOT } from '../harness/helm.js';

export const COMPOSE_PATH = join(REPO_ROOT, 'compose.yaml');
export const ENV_EXAMPLE_PATH = join(REPO_ROOT, '.env.example');
export const CADDYFILE_PATH = join(REPO_ROOT, 'deploy/compose/Caddyfile');

export interface ComposeService {
  readonly image?: string;
  readonly build?: { readonly context: string; readonly target: string };
  readonly command?: readonly string[];
  readonly environment?: Readonly<Record<string, string>>;
  readonly ports?: readonly string[];
  readonly volumes?: readonly string[];
  readonly healthcheck?: { readonly test: readonly string[] };
  readonly depends_on?: Readonly<Record<string, { readonly condition: string }>>;
}

export interface ComposeFile {
  readonly services: Readonly<Record<string, ComposeService>>;
  readonly [key: string]: unknown;
}

/** `${NAME…}` or `$NAME` (or `$$`), as Compose reads them. */
const VARIABLE = /\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g;

/** One string interpolated; a required variable that is missing adds its message to `errors`. */
export function interpolate(text: string, env: Readonly<Record<string, string | undefined>>, errors: string[]): string {
  return text.replace(VARIABLE, (whole, braced: string | undefined, operator: string | undefined, argument: string | undefined, bare: string | undefined) => {
    if (whole === '$$') return '$';
    const name = (braced ?? bare)!;
    const value = env[name];
    const colon = operator?.startsWith(':') ?? false;
    const missing = value === undefined || (colon && value === '');
    switch (operator?.replace(':', '')) {
      case '-':
        return missing ? argument! : value;
      case '?':
        if (missing) errors.push(`${name}: ${argument || 'required'}`);
        return value ?? '';
      case '+':
        return missing ? '' : argument!;
      default:
        return value ?? '';
    }
  });
}

function interpolateTree(node: unknown, env: Readonly<Record<string, string | undefined>>, errors: string[]): unknown {
  if (typeof node === 'string') return interpolate(node, env, errors);
  if (Array.isArray(node)) return node.map((item) => interpolateTree(item, env, errors));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateTree(value, env, errors)]));
  return node;
}

export class ComposeInterpolationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`compose.yaml cannot be interpolated: ${problems.join('; ')}`);
  }
}

/** The variables of an env file (`.env.example`), parsed as Node parses one. */
export function readEnvFile(path = ENV_EXAMPLE_PATH): Record<string, string> {
  return parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;
}

/** compose.yaml with merge keys resolved and every value interpolated from `env`; throws listing every missing required variable. */
export function loadCompose(env: Readonly<Record<string, string | undefined>>): ComposeFile {
  const tree = parse(readFileSync(COMPOSE_PATH, 'utf8'), { merge: true }) as unknown;
  const errors: string[] = [];
  const file = interpolateTree(tree, env, errors) as ComposeFile;
  if (errors.length > 0) throw new ComposeInterpolationError(errors);
  return file;
}
