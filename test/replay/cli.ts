/**
 * Marketplace replay server CLI:
 *   npm run replay -- --corpus ../shared/corpus [--corpus test/fixtures/pages] [--port 8081] [--host 0.0.0.0]
 * Then point the core at it with MARKETPLACE_ORIGIN=http://127.0.0.1:<port>.
 */
import { parseArgs } from 'node:util';
import { createReplayServer } from './server.js';

const { values } = parseArgs({
  options: {
    corpus: { type: 'string', multiple: true },
    port: { type: 'string', default: '8081' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});

const corpusDirs = values.corpus ?? [];
if (corpusDirs.length === 0) {
  console.error('usage: npm run replay -- --corpus DIR [--corpus DIR2] [--port N] [--host H]');
  process.exit(2);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`invalid --port ${values.port}`);
  process.exit(2);
}

const server = await createReplayServer({ corpusDirs, port, host: values.host });
console.log(`replay server on ${server.origin} serving ${server.routeCount} URLs from ${corpusDirs.join(', ')}`);
console.log(`run the core with MARKETPLACE_ORIGIN=${server.origin}`);

const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
