/**
 * The chart's values and docs/deploy.md stay consistent: every value of values.yaml appears in the
 * docs' values reference, every `(env NAME)` comment names a variable the docs document, and every
 * documented value exists in values.yaml.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHART_DIR, REPO_ROOT } from '../harness/helm.js';
import { documentedVariables } from './environment.js';
import { DEPLOYABLE_NAMES } from './workspace.js';

const valuesText = readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8');
const values = parse(valuesText) as Record<string, unknown>;
const docs = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
const GATEWAYS = ['rest', 'graphql', 'mcp'];
/** Maps whose keys are Kubernetes fields or free-form, documented as one value. */
const OPAQUE = new Set(['resources', 'securityContext', 'containerSecurityContext', 'podAnnotations', 'nodeSelector', 'affinity', 'annotations']);

function leafPaths(node: unknown, path: string[] = []): string[] {
  if (node !== null && typeof node === 'object' && !Array.isArray(node) && !OPAQUE.has(path.at(-1) ?? '') && Object.keys(node).length > 0) {
    return Object.entries(node).flatMap(([key, child]) => leafPaths(child, [...path, key]));
  }
  return [path.join('.')];
}

/** The spellings under which the docs may list a value: itself, or its <deployable>/<gateway> form. */
function spellings(path: string): string[] {
  const [head, ...rest] = path.split('.');
  const forms = [path];
  if ((DEPLOYABLE_NAMES as string[]).includes(head!)) forms.push(['<deployable>', ...rest].join('.'));
  if (GATEWAYS.includes(head!)) forms.push(['<gateway>', ...rest].join('.'));
  return forms;
}

describe('values.yaml and docs/deploy.md', () => {
  const paths = leafPaths(values);

  it('the docs list every value of the chart', () => {
    expect(paths.length).toBeGreaterThan(50);
    const missing = paths.filter((path) => !spellings(path).some((form) => docs.includes(`\`${form}\``)));
    expect(missing).toEqual([]);
  });

  it('every value the docs list exists in values.yaml', () => {
    const listed = [...docs.matchAll(/^\| `([a-z<][\w<>.]*)`/gm)].map((match) => match[1]!).filter((name) => name.includes('.') || (name in values && !(DEPLOYABLE_NAMES as string[]).includes(name)));
    expect(listed.length).toBeGreaterThan(50);
    const known = new Set(paths.flatMap(spellings));
    expect(listed.filter((name) => !known.has(name))).toEqual([]);
  });

  it('every (env NAME) comment names a documented variable, and every documented variable is set by some value or computed', () => {
    const commented = [...valuesText.matchAll(/\(env ([A-Z][A-Z0-9_]+)\)/g)].map((match) => match[1]!);
    const documented = documentedVariables();
    expect(commented.length).toBeGreaterThan(15);
    for (const variable of commented) expect(documented).toContain(variable);
    // Variables without a value of their own: computed by the chart or taken from a shared Secret.
    const computed = ['CORE_ADDRESS', 'CACHE_REDIS_URL', 'LEDGER_REDIS_URL', 'OTEL_SERVICE_NAME'];
    for (const variable of documented) expect([...commented, ...computed]).toContain(variable);
  });

  it('console sign-up is closed by default', () => {
    expect((values.console as { config: { signupMode: string } }).config.signupMode).toBe('closed');
  });
});
