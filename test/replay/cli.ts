/**
 * Marketplace replay server CLI:
 *   npm run replay -- --corpus ../shared/corpus [--corpus test/fixtures/pages] [--port 8081] [--host 0.0.0.0]
 * Then point the core at it with MARKETPLACE_ORIGIN=http://127.0.0.1:<port>.
 * It also serves a product whose page changes over time (timeline.ts: amazon.com B0FXTIME01, price
 * 10 → 8 → out of stock → back → new seller), moved on demand through /__replay/timeline/<asin>, or
 * every --timeline-step-ms on its own.
 */
import { parseArgs } from 'node:util';
import { createReplayServer } from './server.js';
import { TIMELINE_ADMIN_PREFIX } from './timeline-admin.js';
import { createTimeline } from './timeline.js';

const USAGE = 'usage: npm run replay -- --corpus DIR [--corpus DIR2] [--port N] [--host H] [--timeline-step-ms MS] [--help]';

/** A usage mistake is one line and exit 2; a stack trace would hide the mistake from the person typing. */
function refuse(message: string): never {
  console.error(`${message} (npm run replay -- --help)`);
  process.exit(2);
}

function readArguments() {
  try {
    return parseArgs({
      options: {
        corpus: { type: 'string', multiple: true },
        port: { type: 'string', default: '8081' },
        host: { type: 'string', default: '127.0.0.1' },
        'timeline-step-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (error) {
    return refuse((error as Error).message.split('\n', 1)[0] ?? 'invalid arguments');
  }
}

const values = readArguments();
if (values.help) {
  console.log(USAGE);
  console.log('Serves recorded marketplace pages; point the core at it with MARKETPLACE_ORIGIN.');
  process.exit(0);
}

const corpusDirs = values.corpus ?? [];
if (corpusDirs.length === 0) refuse('missing --corpus');
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) refuse(`invalid --port ${values.port}`);

const stepText = values['timeline-step-ms'];
const stepMs = stepText === undefined ? undefined : Number(stepText);
if (stepMs !== undefined && (!Number.isInteger(stepMs) || stepMs < 1)) refuse(`invalid --timeline-step-ms ${stepText}`);
const timeline = createTimeline(stepMs ? { stepMs } : {});

const server = await createReplayServer({ corpusDirs, port, host: values.host, timeline });
console.log(`replay server on ${server.origin} serving ${server.routeCount} URLs from ${corpusDirs.join(', ')}`);
console.log(`run the core with MARKETPLACE_ORIGIN=${server.origin}`);
for (const asin of timeline.asins) {
  const moves = stepMs ? `every ${stepMs} ms, or ` : '';
  console.log(`time-varying product amazon.com/dp/${asin}: moves ${moves}on POST ${server.origin}${TIMELINE_ADMIN_PREFIX}${asin}/advance`);
}

const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
