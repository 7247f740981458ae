/**
 * Prints the Portman configuration for the conformance runner's happy path against `npm run demo`
 * (test/contract/portman-happy-path.ts): the runner's own configuration, given as the argument, with
 * each operation's working request from the OpenAPI examples switched on.
 *
 *   node --conditions=source --import tsx scripts/portman-config.ts ../shared/conformance/runners/config/portman-config.json > portman-config.json
 *   PORTMAN_CONFIG=portman-config.json BASE=… KEY=… node ../shared/conformance/runners/openapi-portman-prism.mjs
 */
import { readFileSync } from 'node:fs';
import { happyPathConfig } from '../test/contract/portman-happy-path.js';

const [basePath] = process.argv.slice(2);
if (!basePath) {
  console.error('usage: scripts/portman-config.ts <the runner\'s portman-config.json>');
  process.exit(2);
}
process.stdout.write(`${JSON.stringify(happyPathConfig(JSON.parse(readFileSync(basePath, 'utf8')) as Record<string, unknown>), null, 2)}\n`);
