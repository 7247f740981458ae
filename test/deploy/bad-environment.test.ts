/**
 * A deployable started with a bad environment stops at once with exit code 2 and one line per bad
 * variable: no stack trace, no echoed value, no silent fallback to a default.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function start(main: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', main],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, timeout: 45_000 },
      (error, _stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr }),
    );
  });
}

describe('a bad environment', () => {
  it('stops a gateway with one line per bad variable', async () => {
    const { code, stderr } = await start('gateways/rest/src/main.ts', { PORT: 'eighty', CORE_DEADLINE_MS: '0', SERVICE_TOKEN: 'secret-token-value' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'invalid gateway configuration:',
      '  - PORT must be a whole number from 1 to 65535',
      '  - CORE_DEADLINE_MS must be a whole number from 1 to 600000',
    ]);
  });

  it('stops the console with one line per bad variable, the secret never echoed', async () => {
    const { code, stderr } = await start('gateways/console/src/main.ts', { CONSOLE_SIGNUP_MODE: 'public', CONSOLE_SESSION_SECRET: 'too-short-secret' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'invalid console configuration:',
      '  - CONSOLE_SIGNUP_MODE must be one of open, invite, closed',
      '  - CONSOLE_SESSION_SECRET must be at least 32 characters',
    ]);
  });
});

describe('a bad environment for npm start', () => {
  it('names a too-short SERVICE_TOKEN and the rule in one line, without a stack trace', async () => {
    const { code, stderr } = await start('app/src/main.ts', { SERVICE_TOKEN: 'token', PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      'invalid app configuration:',
      '  - PORT must be a whole number from 0 to 65535',
      '  - SERVICE_TOKEN must be at least 8 characters',
    ]);
  });

  it("stops at the console's bad variables with one line each", async () => {
    const { code, stderr } = await start('app/src/main.ts', { PORT: '0', GRPC_PORT: '0', CONSOLE_SESSION_SECRET: 'too-short-secret' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual(['invalid console configuration:', '  - CONSOLE_SESSION_SECRET must be at least 32 characters']);
  });
});
