/**
 * Start-up and readiness report an unreachable marketplace, without failing readiness: a real core
 * probes its MARKETPLACE_ORIGIN at start (one GET of /robots.txt), logs a warning naming the class
 * and the private cause, keeps its own gRPC health SERVING, turns its `retail.marketplace` health
 * entry NOT_SERVING, and a REST gateway's /readyz stays 200 while its body says "unreachable".
 * Against the replay server the same probe finds the marketplace reachable.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETPLACE_HEALTH_SERVICE } from '@retail/contract';
import { createLogger } from '@retail/core';
import type { TransportFailure } from '@retail/core/outcomes/causes';
import { coreHealthStatus, createCoreClient } from '@retail/gateway-shared';
import { createMetering, type MeteringInstance } from '@retail/metering';
import { createRestApp } from '@retail/rest';
import { startCore, type StartedCore } from '../harness/core.js';
import { startUnreachableOrigins, type UnreachableKind, type UnreachableOrigins } from '../harness/unreachable-origins.js';
import { createReplayServer, type ReplayServer } from '../replay/server.js';

const TOKEN = 'reachability-test-token';
const PROBE = { UPSTREAM_STARTUP_PROBE: 'true', UPSTREAM_TIMEOUT_MS: '400' };

let unreachable: UnreachableOrigins;
let replay: ReplayServer;
let metering: MeteringInstance;
beforeAll(async () => {
  unreachable = await startUnreachableOrigins();
  replay = await createReplayServer({ corpusDirs: [fileURLToPath(new URL('../fixtures/pages/', import.meta.url))] });
  metering = await createMetering();
});
afterAll(async () => {
  await metering?.close();
  await replay?.close();
  await unreachable?.close();
});

/** A core with the start-up probe on, its log lines, and a REST gateway app in front of it. */
async function probedCore(origin: string) {
  const lines: Array<{ level: string; msg: string; outcome?: string; err?: { message?: string; code?: string } }> = [];
  const core = await startCore({ serviceToken: TOKEN, marketplaceOrigin: origin, env: PROBE, logger: createLogger('info', { write: (line: string) => void lines.push(JSON.parse(line)) }) });
  await core.probed();
  const client = createCoreClient({ address: core.address, serviceToken: TOKEN });
  const gateway: Server = createRestApp({ core: client, metering, ready: () => client.ping() }).listen(0, '127.0.0.1');
  await new Promise((resolve) => gateway.once('listening', resolve));
  const readyz = async () => {
    const res = await fetch(`http://127.0.0.1:${(gateway.address() as AddressInfo).port}/readyz`);
    return { status: res.status, body: await res.json() };
  };
  const health = (service: string) => coreHealthStatus(core.address, `Bearer ${TOKEN}`, { service });
  const close = async () => {
    await new Promise((resolve) => gateway.close(resolve));
    await core.stop();
  };
  return { core, lines, readyz, health, close };
}

const CASES: ReadonlyArray<[UnreachableKind, TransportFailure, string, RegExp]> = [
  ['dns', 'dns', 'DNS lookup failed', /ENOTFOUND|EAI_AGAIN/],
  ['refused', 'connection-refused', 'connection refused', /ECONNREFUSED/],
  ['tls', 'tls', 'TLS failure', /certificate/],
  ['silent', 'timeout', 'timeout', /abort|timeout/i],
];

describe('a marketplace the core cannot reach at start', () => {
  it.each(CASES)('%s: reported by the probe, the log, the health entry and /readyz, which stays ready', async (kind, failure, label, privateCause) => {
    const probed = await probedCore(unreachable.origins[kind]);
    try {
      expect(probed.core.marketplace()).toMatchObject({
        state: 'unreachable',
        hosts: [{ host: 'www.amazon.com', state: 'unreachable', lastOutcome: failure, summary: label, by: 'probe', circuit: 'closed' }],
      });
      const warning = probed.lines.find((line) => line.msg.startsWith('marketplace not usable at start-up'));
      expect(warning).toMatchObject({ level: 'warn', outcome: failure, msg: `marketplace not usable at start-up: ${label}; lookups fail until it is` });
      expect(`${warning?.err?.code ?? ''} ${warning?.err?.message ?? ''}`).toMatch(privateCause);
      // Kubernetes asks for '' and keeps the pod; the marketplace's own entry says what is wrong.
      expect(await probed.health('')).toBe('SERVING');
      expect(await probed.health(MARKETPLACE_HEALTH_SERVICE)).toBe('NOT_SERVING');
      expect(await probed.readyz()).toEqual({ status: 200, body: { status: 'ready', marketplace: 'unreachable' } });
    } finally {
      await probed.close();
    }
  });
});

describe('a marketplace the core reaches at start (the replay server)', () => {
  it('is reachable by the probe, SERVING in the health entry and in /readyz, logged at info', async () => {
    const probed = await probedCore(replay.origin);
    try {
      expect(probed.core.marketplace()).toMatchObject({ state: 'reachable', hosts: [{ host: 'www.amazon.com', state: 'reachable', by: 'probe' }] });
      expect(probed.lines.find((line) => line.msg === 'marketplace reachable at start-up')).toMatchObject({ level: 'info' });
      expect(replay.requests.filter((request) => request.path === '/robots.txt')).toHaveLength(1);
      expect(await probed.health(MARKETPLACE_HEALTH_SERVICE)).toBe('SERVING');
      expect(await probed.readyz()).toEqual({ status: 200, body: { status: 'ready', marketplace: 'reachable' } });
    } finally {
      await probed.close();
    }
  });

  it('without the probe the entry says UNKNOWN until the first fetch', async () => {
    const core: StartedCore = await startCore({ serviceToken: TOKEN, marketplaceOrigin: replay.origin });
    try {
      await core.probed();
      expect(core.marketplace()).toEqual({ state: 'unknown', hosts: [] });
      expect(await coreHealthStatus(core.address, `Bearer ${TOKEN}`, { service: MARKETPLACE_HEALTH_SERVICE })).toBe('UNKNOWN');
    } finally {
      await core.stop();
    }
  });
});
