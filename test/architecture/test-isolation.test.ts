import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { INSTALLS_TELEMETRY_GLOBALS } from '../isolated-files.js';

const ROOT = join(import.meta.dirname, '../..');
/** What installs an OpenTelemetry global: a provider's `register()` or the API's `setGlobal…`. */
const INSTALLS_GLOBAL = /\.register\(\)|setGlobal(?:TracerProvider|MeterProvider|ContextManager|Propagator)\(/;
const SKIPPED = new Set(['node_modules', 'dist', '.git', '.tmp']);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : testFiles(join(dir, entry.name));
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, join(dir, entry.name))] : [];
  });
}

describe('test isolation', () => {
  it('runs exactly the test files that install an OpenTelemetry global in the isolated project', () => {
    const files = testFiles(ROOT);
    expect(files.length).toBeGreaterThan(200);
    const installing = files.filter((file) => INSTALLS_GLOBAL.test(readFileSync(join(ROOT, file), 'utf8')));
    expect(installing.sort()).toEqual([...INSTALLS_TELEMETRY_GLOBALS].sort());
  });
});
