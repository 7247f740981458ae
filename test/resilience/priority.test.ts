/**
 * Interactive calls before background ones, on real ports: a real core (one request in flight per
 * host) in front of a slow marketplace stand-in, called by the gateways' core client. Background
 * calls (a bulk job's items, `x-retail-priority: background`) fill the host's queue; an interactive
 * call made after them is served as soon as the running request is done, before every waiting
 * background call.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Domain } from '@retail/contract';
import { createCoreClient, registryOperation } from '@retail/gateway-shared';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startCore, type StartedCore } from '../harness/core.js';

const PAGE_MS = 250;
let origin: Server;
let core: StartedCore;

beforeAll(async () => {
  // Every page takes PAGE_MS and does not exist: each call is one upstream request, none is retried or cached.
  origin = createServer((_request, response) => void setTimeout(() => response.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not Found</body></html>'), PAGE_MS));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  core = await startCore({
    marketplaceOrigin: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
    env: { UPSTREAM_HOST_CONCURRENCY: '1', UPSTREAM_HOST_RATE: '0', UPSTREAM_RETRY_MAX_ATTEMPTS: '1' },
  });
});
afterAll(async () => {
  await core?.stop();
  await new Promise((resolve) => origin?.close(resolve));
});

it('serves an interactive call before the background calls queued ahead of it at the host cap', async () => {
  const client = createCoreClient({ address: core.address, serviceToken: core.token, deadlineMs: 30_000 });
  const op = registryOperation('GetProduct');
  const finished: string[] = [];
  const call = (name: string, asin: string, background: boolean) =>
    client.callOperation(op, { asin, domain: Domain.US }, { requestId: name, background }).catch(() => undefined).then(() => void finished.push(name));
  const background = ['bg1', 'bg2', 'bg3', 'bg4'].map((name, i) => call(name, `B0PRIOBG0${i}`, true));
  // Let the background calls reach the core's host queue first.
  await new Promise((resolve) => setTimeout(resolve, PAGE_MS / 2));
  const interactive = call('ui', 'B0PRIOUI00', false);
  await Promise.all([...background, interactive]);
  expect(finished.indexOf('ui')).toBe(1);
  expect(finished[0]).toBe('bg1');
}, 30_000);
