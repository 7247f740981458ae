/**
 * What the chart's environment is checked against: the variables each deployable's own code reads
 * (found in the sources of its workspace closure, so a variable the code stopped reading fails the
 * test) and the variables it cannot run without.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isMap, parseDocument } from 'yaml';
import { CHART_DIR, REPO_ROOT } from '../harness/helm.js';
import { DEPLOYABLES, type DeployableName, workspaceClosure, workspaceFolders } from './workspace.js';

/** Variables each deployable must get; "A|B" means either. */
export const REQUIRED_ENV: Record<DeployableName, readonly string[]> = {
  core: ['GRPC_PORT', 'SERVICE_TOKEN', 'CACHE_REDIS_URL'],
  rest: ['PORT', 'CORE_ADDRESS', 'WATCHER_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER'],
  graphql: ['PORT', 'CORE_ADDRESS', 'WATCHER_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER'],
  mcp: ['PORT', 'CORE_ADDRESS', 'WATCHER_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER'],
  // The console's Watches page calls the watcher with the service token.
  console: ['PORT', 'WATCHER_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER', 'CONSOLE_SESSION_SECRET', 'CONSOLE_SIGNUP_MODE'],
  // PORT: its HTTP probes. The queues live on the ledger unless QUEUE_REDIS_URL names another Redis.
  watcher: ['GRPC_PORT', 'PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'DATABASE_URL', 'WEBHOOK_SECRET_KEY', 'LEDGER_REDIS_URL|QUEUE_REDIS_URL'],
};

/**
 * Variables a library of the deployable reads by itself, which its own code therefore never names:
 * name → the deployable and how to check that the library reads it (run, not grepped).
 */
export const LIBRARY_READS: Readonly<Record<string, { deployables: readonly DeployableName[]; reads: () => boolean }>> = {
  // node-postgres takes the password from PGPASSWORD when DATABASE_URL (or LEDGER_DATABASE_URL) carries
  // none (libpq's rule), so the database's password never has to be URL-encoded into a URL. The
  // watcher and every deployable that writes the ledger's record (@retail/database) connect with it.
  PGPASSWORD: {
    deployables: ['watcher', 'rest', 'graphql', 'mcp', 'console'],
    reads: () => {
      const saved = process.env.PGPASSWORD;
      process.env.PGPASSWORD = 'from-the-environment';
      try {
        const require = createRequire(join(REPO_ROOT, 'watcher/package.json'));
        const ConnectionParameters = require('pg/lib/connection-parameters') as new (config: unknown) => { password: string };
        return new ConnectionParameters({ connectionString: 'postgresql://watcher@db:5432/watcher' }).password === 'from-the-environment';
      } finally {
        if (saved === undefined) delete process.env.PGPASSWORD;
        else process.env.PGPASSWORD = saved;
      }
    },
  },
};

/**
 * A deployable whose entry point does not exist yet has no code to check variables against: the
 * watcher's main.ts and config.ts are being written beside the chart (issue 14). Once main.ts exists
 * every variable the chart gives the watcher must be read by its code, as for the others.
 */
export function entryPointExists(name: DeployableName): boolean {
  const folder = workspaceFolders().get(DEPLOYABLES[name].packageName)!;
  return existsSync(join(REPO_ROOT, folder, 'src/main.ts'));
}

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'gen') walk(path);
      } else if (/\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)) {
        files.push(path);
      }
    }
  };
  walk(join(REPO_ROOT, folder, 'src'));
  return files;
}

const sourceCache = new Map<DeployableName, string>();

/** True when the deployable's code (its package and its workspace dependencies) names the variable. */
export function codeReads(name: DeployableName, variable: string): boolean {
  let text = sourceCache.get(name);
  if (text === undefined) {
    const folders = workspaceClosure(DEPLOYABLES[name].packageName);
    text = folders.flatMap(sourceFiles).map((file) => readFileSync(file, 'utf8')).join('\n');
    sourceCache.set(name, text);
  }
  return new RegExp(`\\b${variable}\\b`).test(text);
}

/** The variables of docs/deploy.md's environment table: rows that start with a `NAME` cell. */
export function documentedVariables(): string[] {
  const docs = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
  return [...docs.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((match) => match[1]!);
}

/**
 * The modules where the core reads its configuration: what they read the chart must expose (a value
 * with an `(env NAME)` comment, rendered into the core's ConfigMap or Secret) and docs/deploy.md must
 * document, except the variables of NOT_SET_BY_CHART.
 */
export const CORE_CONFIG_MODULES = ['core/src/config.ts', 'core/src/resilience/config.ts'] as const;

/** Variables the core's configuration reads that the chart deliberately never sets, and why (docs/deploy.md says so too). */
export const NOT_SET_BY_CHART: Readonly<Record<string, string>> = {
  REDIS_URL: 'sets both Redis roles for npm start; the chart sets the role-specific CACHE_REDIS_URL',
  CACHE_MAX_BYTES: 'bounds the in-memory page cache, used only without a Redis cache; the chart always gives the core one',
};

/**
 * The variables one configuration module reads: the keys of its zod environment schemas
 * (`  NAME: z...` / `  NAME: int(...)`) and its direct reads (`env.NAME`, `process.env.NAME`).
 */
export function configModuleVariables(module: string): string[] {
  const text = readFileSync(join(REPO_ROOT, module), 'utf8');
  const keys = [...text.matchAll(/^\s+['"]?([A-Z][A-Z0-9_]*[A-Z0-9])['"]?\s*:/gm)].map((match) => match[1]!);
  const reads = [...text.matchAll(/\benv\??\.([A-Z][A-Z0-9_]*[A-Z0-9])\b/g)].map((match) => match[1]!);
  return [...new Set([...keys, ...reads])].sort();
}

/** Every variable the core's configuration modules read. */
export function coreConfigVariables(): string[] {
  return [...new Set(CORE_CONFIG_MODULES.flatMap(configModuleVariables))].sort();
}

/**
 * The values of values.yaml that set a variable: dotted path → NAME, from the `(env NAME)` in the
 * `# --` comment right above the key (a section comment above that one does not count).
 */
export function valueEnvironment(): Map<string, string> {
  const document = parseDocument(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8'));
  const found = new Map<string, string>();
  const walk = (node: unknown, path: string[]): void => {
    if (!isMap(node)) return;
    node.items.forEach((pair, index) => {
      const key = String((pair.key as { value?: unknown }).value);
      // The first key's comment may sit on its map instead of on the key.
      const comment = (pair.key as { commentBefore?: string }).commentBefore ?? (index === 0 && path.length > 0 ? node.commentBefore : undefined) ?? '';
      const lines = comment.split('\n');
      const start = lines.findLastIndex((line) => line.trim().startsWith('--'));
      const name = start < 0 ? undefined : /\(env ([A-Z][A-Z0-9_]+)\)/.exec(lines.slice(start).join('\n'))?.[1];
      if (name) found.set([...path, key].join('.'), name);
      walk(pair.value, [...path, key]);
    });
  };
  walk(document.contents, []);
  return found;
}
