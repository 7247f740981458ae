/**
 * BENCH_ACCESS_LOG=on puts the gateways' access log (gateways/shared/src/access-log.ts) in front of a
 * bench's mounts, so its CPU per call can be compared with the same run without it (issue 17). The
 * lines go to /dev/null with synchronous writes, as pino writes stdout, so the write is priced too.
 */
import { openSync, writeSync } from 'node:fs';
import { Writable } from 'node:stream';
import { createGatewayLogger, logAccess } from '@retail/gateway-shared';
import type { Mount } from '../test/harness/stack.js';

export function accessLogMounts(): Mount[] {
  if (process.env.BENCH_ACCESS_LOG !== 'on') return [];
  const fd = openSync('/dev/null', 'w');
  const sink = new Writable({ write: (chunk: Buffer, _enc, done) => (writeSync(fd, chunk), done()) });
  const logger = createGatewayLogger('bench', 'info', sink);
  return [(app) => void app.use(logAccess(logger))];
}
