/**
 * The Server-Sent Events writer of a job's progress over a real HTTP server and raw sockets, fed by
 * a stand-in for the backend client's streamCall (a generator of Job messages that records when it
 * is cancelled; the real watcher behind it is test/app/jobs-rest.test.ts's): heartbeat comments while
 * nothing changes, and the client's leaving ending the upstream stream at once.
 */
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { create } from '@bufbuild/protobuf';
import { JobSchema, JobStatus, StreamJobProgressResponseSchema } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import type { CoreClient } from './core-client.js';
import { serveJobProgress } from './job-progress.js';

const RUNNING = create(JobSchema, { id: '00000000-0000-4000-8000-000000000001', status: JobStatus.RUNNING, total: 10, done: 3 });

describe('the progress event stream', () => {
  it('sends heartbeat comments while the job does not change, and ends the upstream stream when the client leaves', async () => {
    let upstreamEnded = false;
    const core = {
      streamCall: async function* (_method: unknown, _request: unknown, options: { signal?: AbortSignal }) {
        try {
          yield create(StreamJobProgressResponseSchema, { job: RUNNING });
          // Nothing changes until the call is cancelled.
          await new Promise((resolve) => options.signal?.addEventListener('abort', resolve, { once: true }));
        } finally {
          upstreamEnded = true;
        }
      },
    } as unknown as Pick<CoreClient, 'streamCall'>;
    const server = createServer((req, res) => {
      void serveJobProgress(core, req, res, { id: RUNNING.id, accountId: 'a', requestId: 'r', style: 'rest', headers: { 'X-Request-Id': 'r' }, heartbeatMs: 40 }, () => res.writeHead(500).end());
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    const req = request({ host: '127.0.0.1', port, path: '/events' });
    req.end();
    const [res] = (await once(req, 'response')) as [import('node:http').IncomingMessage];
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => (text += chunk));
    await expect.poll(() => (text.match(/^:/gm) ?? []).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(3);
    expect(text).toMatch(/^event: ?progress\nid: ?RUNNING\.3\.0\.0\ndata: ?\{"retailJob":\{"id":"00000000-0000-4000-8000-000000000001","status":"RUNNING"/m);
    expect(upstreamEnded).toBe(false);
    req.destroy();
    await expect.poll(() => upstreamEnded, { timeout: 5_000 }).toBe(true);
    server.close();
  });
});
