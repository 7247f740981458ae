/**
 * A billing system's ingestion endpoint on a free loopback port, for the billing export's tests: it
 * verifies every request with the `standardwebhooks` package (401 when the signature is wrong), keeps
 * the batches it acknowledged, and answers as told (a status, a delay) or not at all (stopped).
 */
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';

export interface ReceivedBatch {
  readonly webhookId: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  readonly events: any[];
}

export class BillingReceiver {
  readonly batches: ReceivedBatch[] = [];
  /** Requests answered with an error, by webhook-id. */
  readonly refused: string[] = [];
  /** Requests whose signature did not verify. */
  unverified = 0;
  answer = 204;
  /** How long each answer takes (a slow receiver). */
  delayMs = 0;
  private server: Server | undefined;
  constructor(readonly port: number, private readonly secret: string) {}
  get url() {
    return `http://127.0.0.1:${this.port}/ingest`;
  }
  /** Every event id acknowledged so far. */
  ids(): Set<string> {
    return new Set(this.batches.flatMap((batch) => batch.events.map((event) => event.id as string)));
  }
  async start(): Promise<void> {
    const verifier = new Webhook(this.secret);
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = req.headers as IncomingHttpHeaders & Record<string, string>;
        let events: any[];
        try {
          events = verifier.verify(body, headers) as any[];
        } catch (error) {
          this.unverified++;
          res.writeHead(401).end(String(error));
          return;
        }
        if (this.answer >= 300) {
          this.refused.push(headers['webhook-id']!);
          res.writeHead(this.answer).end('not now');
          return;
        }
        setTimeout(() => {
          // Kept only once answered: a sender killed before the answer has not delivered it.
          res.writeHead(this.answer).end(() => this.batches.push({
            webhookId: headers['webhook-id']!, contentType: headers['content-type'], authorization: headers.authorization, events,
          }));
        }, this.delayMs);
      });
    });
    this.server.listen(this.port, '127.0.0.1');
    await once(this.server, 'listening');
  }
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
