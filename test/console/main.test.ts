/**
 * The console's own deployment (src/main.ts) as a real process: env configuration, /healthz,
 * /readyz, the page at /console/, sign-up mode from CONSOLE_SIGNUP_MODE, and a clean SIGTERM exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsoleClient, uniqueEmail } from './harness.js';

let child: ChildProcess;
let origin: string;

beforeAll(async () => {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: '0',
    HOST: '127.0.0.1',
    CONSOLE_SIGNUP_MODE: 'invite',
    CONSOLE_INVITE_CODES: 'FIRST, SECOND',
    CONSOLE_SESSION_SECRET: 'main-test-secret-0123456789abcdefghij',
    CONSOLE_SECURE_COOKIES: 'false',
  };
  child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'gateways/console/src/main.ts'], {
    cwd: new URL('../../', import.meta.url),
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`console did not start: ${output}`)), 45_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /"port":(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${match[1]}`);
      }
    });
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.once('exit', (code) => reject(new Error(`console exited with ${code}: ${output}`)));
  });
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('gateways/console/src/main.ts', () => {
  it('serves health, readiness, the page and an invite-only API configured from the environment', async () => {
    expect(await (await fetch(`${origin}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await fetch(`${origin}/readyz`)).status).toBe(200);
    const page = await fetch(`${origin}/console/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('API Keys');

    const client = new ConsoleClient(`${origin}/console`);
    expect((await client.get('session')).body.data.signupMode).toBe('invite');
    expect((await client.signUp(uniqueEmail(), undefined, { inviteCode: 'WRONG' })).status).toBe(403);
    const ok = await client.signUp(uniqueEmail(), undefined, { inviteCode: 'SECOND' });
    expect(ok.status).toBe(201);
    expect((await client.post('keys', { label: 'main' })).status).toBe(201);
  });

  it('exits cleanly on SIGTERM', async () => {
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const [code] = await exited;
    expect(code).toBe(0);
  });
});
