/**
 * `npm start`: the whole service in one process on http://127.0.0.1:8080 (PORT). Memory stores by
 * default, Redis when REDIS_URL is set; the live marketplace, or the replay server when
 * MARKETPLACE_ORIGIN is set (`npm run demo` does that for you).
 */
import { loadAppConfig } from './config.js';
import { exitOnStartFailure, probeStartServers } from './exit-on-start-failure.js';
import { printWelcome } from './welcome.js';
import { startStack } from './stack.js';

const config = await exitOnStartFailure(() => loadAppConfig());
await exitOnStartFailure(() => probeStartServers(process.env));
const stack = await exitOnStartFailure(() => startStack(config));
void printWelcome(stack, { upstream: config.marketplaceOrigin ?? 'the live marketplace', tokenFromEnvironment: Boolean(process.env.SERVICE_TOKEN?.trim()) });

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  stack.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
