/**
 * `npm run demo`: the one-process service against the marketplace replay server, serving the recorded
 * pages of ../shared/corpus (when present; RETAIL_CORPUS overrides) and the project's own fixtures,
 * with the catalogue of what they answer at /demo. Nothing leaves the machine.
 */
import { startDemoStack } from './demo-stack.js';
import { DEMO_CATALOGUE_JSON_PATH, DEMO_CATALOGUE_PATH } from './demo-catalogue/paths.js';
import { exitOnStartFailure } from './exit-on-start-failure.js';
import { printWelcome } from './welcome.js';

const demo = await exitOnStartFailure(() => startDemoStack(process.env));
const { entries } = demo.catalogue;
void printWelcome(demo.stack, {
  upstream: `replay server ${demo.replay.origin} (${demo.corpusDirs.join(', ')})`,
  headline: `Retail Data API demo is running OFFLINE: every answer comes from recordings on this machine (replay server ${demo.replay.origin} over ${demo.corpusDirs.join(', ')}), never the live marketplace; \`npm start\` calls the live one`,
  extraRows: [[
    'Demo catalogue',
    `${demo.stack.url}${DEMO_CATALOGUE_PATH}`,
    `the ${entries.length} requests the recordings answer, over ${new Set(entries.map((e) => e.domain)).size} marketplaces; JSON at ${DEMO_CATALOGUE_JSON_PATH}; anything else is a 404`,
  ]],
  tokenFromEnvironment: Boolean(process.env.SERVICE_TOKEN?.trim()),
  // A product the recordings answer, so the printed calls work as pasted (anything else is a 404 here).
  sampleAsin: entries.find((e) => e.operation === 'GetProduct' && e.domain === 'US' && e.query.asin)?.query.asin,
});

const shutdown = () => {
  void demo.stop().then(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
