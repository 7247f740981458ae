/**
 * `retail listen`: receives webhooks on this machine, checks each signature and prints the event,
 * and forwards it to the developer's own endpoint, as payment platforms' CLIs do (`stripe listen
 * --forward-to`). The service posts straight to the listener (loopback targets are allowed in
 * `npm start` and `npm run demo`), so no tunnel is needed: with `--watch ID` the listener points the
 * watch's webhook at itself through the API and verifies with the secret that answer returns; for a
 * target set up by hand (a bulk job created with the listener's URL) `--secret` gives the secret the
 * creation printed. Verification is the `standardwebhooks` package's, as a production receiver's.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { EXIT, type ExitCode, UsageError } from './exit-codes.js';
import { send, type ApiSettings } from './http.js';
import type { CliIo } from './io.js';

export interface ListenOptions {
  readonly forwardTo?: string;
  readonly watch?: string;
  readonly secret?: string;
  readonly port?: string;
}

const SIGNATURE_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

function checkedForwardUrl(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--forward-to ${JSON.stringify(text)} is not a URL (e.g. http://127.0.0.1:3000/hook)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError('--forward-to must be an http:// or https:// URL');
  return url.href;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Points the watch's webhook at the listener; the answer carries the new signing secret, shown once. */
async function targetWatch(api: ApiSettings, id: string, url: string): Promise<string> {
  const answer = await send(api, { method: 'PATCH', pathAndQuery: `/api/retail/watches/${encodeURIComponent(id)}`, body: { webhook: { url } } });
  const secret = (answer.body as { data?: { retailWatch?: { webhook?: { secret?: string } } } } | null)?.data?.retailWatch?.webhook?.secret;
  if (answer.status !== 200 || !secret) throw new UsageError(`could not point watch ${id} at ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return secret;
}

export async function runListen(options: ListenOptions, api: ApiSettings | undefined, io: CliIo, stopped: Promise<unknown>): Promise<ExitCode> {
  const forwardTo = checkedForwardUrl(options.forwardTo);
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number (0 picks a free one)');
  if (options.watch !== undefined && options.secret !== undefined) throw new UsageError('give --watch (the listener sets the webhook and learns its secret) or --secret, not both');
  let verifier = options.secret === undefined ? undefined : new Webhook(options.secret);

  const server = createServer((request, response) => {
    void readBody(request).then(async (body) => {
      const headers = Object.fromEntries(SIGNATURE_HEADERS.map((name) => [name, String(request.headers[name] ?? '')]));
      let verdict = 'signature not checked (no --watch or --secret)';
      if (verifier) {
        try {
          verifier.verify(body, headers);
          verdict = 'signature verified';
        } catch (error) {
          io.stdout.write(`${new Date().toISOString()}  ${headers['webhook-id']}  signature REFUSED: ${(error as Error).message}\n`);
          response.writeHead(401).end();
          return;
        }
      }
      const type = (JSON.parse(body) as { type?: string }).type ?? 'event';
      io.stdout.write(`${new Date().toISOString()}  ${type}  ${headers['webhook-id']}  ${verdict}\n  ${body}\n`);
      if (!forwardTo) return void response.writeHead(204).end();
      const forwarded = await fetch(forwardTo, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, signal: AbortSignal.timeout(10_000) }).catch((error: Error) => error);
      const status = forwarded instanceof Error ? 502 : forwarded.status;
      io.stdout.write(`  -> ${forwardTo}: ${forwarded instanceof Error ? `no answer (${(forwarded.cause as Error | undefined)?.message ?? forwarded.message})` : status}\n`);
      // The service retries what the developer's endpoint did not take, as it would in production.
      response.writeHead(status).end();
    }).catch(() => response.writeHead(400).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new UsageError(`--port ${port} is already in use`) : error));
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    if (options.watch !== undefined) {
      if (!api) throw new UsageError('--watch needs an API key (--key or RETAIL_API_KEY)');
      const secret = await targetWatch(api, options.watch, url);
      verifier = new Webhook(secret);
      io.stdout.write(`Watch ${options.watch} now sends its webhooks to ${url}; signing secret ${secret}\n`);
    }
    io.stdout.write(`Ready: listening on ${url}${forwardTo ? `, forwarding to ${forwardTo}` : ''} (Ctrl-C to stop)\n`);
    await stopped;
    return EXIT.ok;
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
