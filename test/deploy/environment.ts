/**
 * What the chart's environment is checked against: the variables each deployable's own code reads
 * (found in the sources of its workspace closure, so a variable the code stopped reading fails the
 * test) and the variables it cannot run without.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/helm.js';
import { DEPLOYABLES, type DeployableName, workspaceClosure } from './workspace.js';

/** Variables each deployable must get; "A|B" means either. */
export const REQUIRED_ENV: Record<DeployableName, readonly string[]> = {
  core: ['GRPC_PORT', 'SERVICE_TOKEN', 'CACHE_REDIS_URL'],
  rest: ['PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER'],
  graphql: ['PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER'],
  mcp: ['PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER'],
  console: ['PORT', 'LEDGER_REDIS_URL|LEDGER_REDIS_CLUSTER', 'CONSOLE_SESSION_SECRET', 'CONSOLE_SIGNUP_MODE'],
};

function sourceFiles(folder: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'testing' && entry.name !== 'gen') walk(path);
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
