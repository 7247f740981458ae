/** CORS stays closed unless configured, and then answers only the listed origins. */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createCors } from './cors.js';

let base: string;
let close: () => void;

beforeAll(async () => {
  const app = express();
  app.use('/open', createCors({ origins: ['https://app.example'], methods: ['POST'], extraAllowedHeaders: ['Mcp-Protocol-Version'] }));
  app.use('/closed', createCors({ origins: [], methods: ['POST'] }));
  app.post(['/open', '/closed'], (_req, res) => void res.json({ ok: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close?.());

it('answers preflights and exposes the metering headers for a listed origin only', async () => {
  const preflight = await fetch(`${base}/open`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example');
  expect(preflight.headers.get('access-control-allow-headers')).toMatch(/API-KEY.*Mcp-Protocol-Version/);
  expect(preflight.headers.get('access-control-allow-methods')).toBe('POST, OPTIONS');
  expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  const post = await fetch(`${base}/open`, { method: 'POST', headers: { origin: 'https://app.example' } });
  expect(post.headers.get('access-control-expose-headers')).toMatch(/X-Units-Charged/);
  const stranger = await fetch(`${base}/open`, { method: 'POST', headers: { origin: 'https://evil.example' } });
  expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  const closed = await fetch(`${base}/closed`, { method: 'POST', headers: { origin: 'https://app.example' } });
  expect(closed.headers.get('access-control-allow-origin')).toBeNull();
});
