/** The replay CLI answers --help and usage mistakes in one line each, never with a stack trace. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'test/replay/cli.ts', ...args],
      { cwd: ROOT, timeout: 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

describe('npm run replay', () => {
  it('prints usage for --help and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^usage: npm run replay -- --corpus DIR/);
    expect(stderr).toBe('');
  });

  it('refuses an unknown flag with a one-line error and exit 2', async () => {
    const { code, stderr } = await runCli(['--bogus']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/--bogus.*--help/)]);
  });
});
