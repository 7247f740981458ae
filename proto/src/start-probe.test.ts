import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServerUnreachableError } from './start-failure.js';
import { probeServers } from './start-probe.js';

let listening: Server;
let open: number;
let closed: number;

beforeAll(async () => {
  listening = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  open = (listening.address() as { port: number }).port;
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closed = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(() => new Promise((resolve) => listening.close(resolve)));

const server = (variable: string, url: string | undefined, optionalAtStart = false) => ({ variable, url, otherwise: 'unset it', ...(optionalAtStart && { optionalAtStart }) });

describe('probeServers', () => {
  it('resolves when every server named takes a connection, and skips unset variables', async () => {
    await expect(probeServers([server('REDIS_URL', `redis://127.0.0.1:${open}`), server('DATABASE_URL', undefined), server('CACHE_REDIS_URL', '  ')])).resolves.toBeUndefined();
  });

  it('rejects for the first server in order that refuses, with its address and never its password', async () => {
    const error = await probeServers([
      server('REDIS_URL', `redis://127.0.0.1:${open}`),
      server('LEDGER_DATABASE_URL', `postgres://user:secret@127.0.0.1:${closed}/ledger`),
      server('QUEUE_REDIS_URL', `redis://127.0.0.1:${closed}`),
    ]).catch((rejection: unknown) => rejection);
    expect(error).toBeInstanceOf(ServerUnreachableError);
    const { server: which, code, address, message } = error as ServerUnreachableError;
    expect([which.variable, code, address]).toEqual(['LEDGER_DATABASE_URL', 'ECONNREFUSED', `127.0.0.1:${closed}`]);
    expect(message).not.toContain('secret');
  });

  it('lets a server that is optional at start be down, but not be a name that does not exist', async () => {
    await expect(probeServers([server('LEDGER_DATABASE_URL', `postgres://127.0.0.1:${closed}/ledger`, true)])).resolves.toBeUndefined();
    await expect(probeServers([server('LEDGER_DATABASE_URL', 'postgres://no-such-host.invalid/ledger', true)])).rejects.toMatchObject({ code: 'ENOTFOUND', address: 'no-such-host.invalid:5432' });
  });
});
