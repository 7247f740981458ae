/**
 * What a bench puts in front of its gateway mounts to price observability (issue 17):
 * BENCH_ACCESS_LOG=on the gateways' access log alone (gateways/shared/src/access-log.ts);
 * BENCH_OBSERVE=on all that a deployment mounts first (observeRequests: the request's span, its
 * metrics and the access log line), with or without an SDK registered (bench/telemetry-on.ts). The
 * log lines go to /dev/null with synchronous writes, as pino writes stdout, so the write is priced too.
 */
import { openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createGatewayLogger, logAccess, observeRequests } from '@retail/gateway-shared';
import type { Mount } from '../test/harness/stack.js';

export function accessLogMounts(): Mount[] {
  const observe = process.env.BENCH_OBSERVE === 'on';
  if (process.env.BENCH_ACCESS_LOG !== 'on' && !observe) return [];
  const fd = openSync('/dev/null', 'w');
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (writeSync(fd, chunk), done()) });
  const logger = createGatewayLogger('bench', 'info', sink);
  return [(app) => void app.use(observe ? observeRequests(logger) : logAccess(logger))];
}
