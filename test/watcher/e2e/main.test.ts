/** `npm run start:watcher` with a bad environment: one line per bad variable, exit 2, no stack, no value echoed. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../../../watcher/src/main.ts', import.meta.url));

describe('the watcher deployable', () => {
  it('refuses a bad environment with one line per variable and exit 2', async () => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', MAIN],
        { env: { PATH: process.env.PATH ?? '', SERVICE_TOKEN: 'secret value', WATCHER_ROLE: 'scheduler', GRPC_PORT: '70000' }, timeout: 60_000 },
        (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
      );
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([
      'invalid watcher configuration:',
      expect.stringMatching(/^ {2}- WATCHER_ROLE must be one of all, api, worker$/),
      expect.stringMatching(/^ {2}- GRPC_PORT /),
      expect.stringMatching(/^ {2}- SERVICE_TOKEN must not contain whitespace$/),
    ]);
    expect(result.stderr).not.toContain('secret value');
  }, 60_000);
});
