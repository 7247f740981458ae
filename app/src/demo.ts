/**
 * `npm run demo`: the one-process service against the marketplace replay server, serving the recorded
 * pages of ../shared/corpus (when present; RETAIL_CORPUS overrides) and the project's own fixtures.
 * Nothing leaves the machine.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createReplayServer } from '../../test/replay/server.js';
import { loadAppConfig } from './config.js';
import { exitOnBadEnvironment } from './exit-on-bad-environment.js';
import { startStack } from './stack.js';
import { printWelcome } from './welcome.js';

const root = resolve(import.meta.dirname, '../..');
const corpus = process.env.RETAIL_CORPUS ?? resolve(root, '../shared/corpus');
const corpusDirs = [resolve(root, 'test/fixtures/pages'), ...(existsSync(resolve(corpus, 'index.json')) ? [corpus] : [])];

const replay = await createReplayServer({ corpusDirs, port: 0, host: '127.0.0.1' });
const config = { ...(await exitOnBadEnvironment(() => loadAppConfig())), marketplaceOrigin: replay.origin };
/** The demo's catalogue of recorded identifiers (every ASIN, search and category the replay server holds). */
const DEMO_CATALOGUE_PATH = '/demo';
const stack = await exitOnBadEnvironment(() =>
  startStack(config, { ...process.env, MARKETPLACE_ORIGIN: replay.origin }, {
    landingLinks: [{ href: DEMO_CATALOGUE_PATH, title: 'Demo catalogue', description: 'Every product, search and category the demo has recorded, each with a ready link.' }],
  }),
);
void printWelcome(stack, {
  upstream: `replay server ${replay.origin} (${corpusDirs.join(', ')})`,
  extraRows: [['Demo catalogue', `${stack.url}${DEMO_CATALOGUE_PATH}`, 'what the replay server has recorded: anything else is a 404']],
  tokenFromEnvironment: Boolean(process.env.SERVICE_TOKEN?.trim()),
});

const shutdown = () => {
  void Promise.allSettled([stack.stop(), replay.close()]).then(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
