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
import { NOT_SET_BY_CHART, coreConfigVariables, documentedVariables, valueEnvironment } from './environment.js';
import { DEPLOYABLE_NAMES } from './workspace.js';

const valuesText = readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8');
const values = parse(valuesText) as Record<string, unknown>;
const docs = readFileSync(join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
const GATEWAYS = ['rest', 'graphql', 'mcp'];
/** Variables without a value of their own: computed by the chart or taken from a shared Secret. */
const COMPUTED = ['CORE_ADDRESS', 'WATCHER_ADDRESS', 'CACHE_REDIS_URL', 'LEDGER_REDIS_URL', 'PGPASSWORD', 'OTEL_SERVICE_NAME'];
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
    for (const variable of documented) expect([...commented, ...COMPUTED]).toContain(variable);
  });

  it("every variable the core's configuration reads is set by a value and documented, or the docs say why the chart leaves it out", () => {
    const read = coreConfigVariables();
    // The extraction itself: these are read for certain (core/src/config.ts, core/src/resilience/config.ts).
    expect(read).toEqual(expect.arrayContaining(['GRPC_PORT', 'SERVICE_TOKEN', 'UPSTREAM_TIMEOUT_MS', 'UPSTREAM_PROXIES', 'PARSE_WORKERS']));
    const exempt = Object.keys(NOT_SET_BY_CHART);
    const exposed = read.filter((variable) => !exempt.includes(variable));
    const setByValue = new Set([...valueEnvironment().values(), ...COMPUTED]);
    const documented = documentedVariables();
    expect(exposed.filter((variable) => !setByValue.has(variable)), 'read by the core, set by no value of values.yaml').toEqual([]);
    expect(exposed.filter((variable) => !documented.includes(variable)), 'read by the core, missing from docs/deploy.md').toEqual([]);
    for (const variable of exempt) {
      expect(read, `the core no longer reads ${variable}: drop it from NOT_SET_BY_CHART`).toContain(variable);
      expect(docs, `docs/deploy.md says why the chart never sets ${variable}`).toContain(`\`${variable}\``);
    }
  });

  it('every value under core.config and core.secret names the variable it sets', () => {
    const named = valueEnvironment();
    const unnamed = paths.filter((path) => /^core\.(config|secret)\./.test(path) && !/\.existingSecret(Key)?$/.test(path) && !named.has(path));
    expect(unnamed).toEqual([]);
  });

  it('console sign-up is closed by default', () => {
    expect((values.console as { config: { signupMode: string } }).config.signupMode).toBe('closed');
  });
});
