/**
 * Writes gateways/rest/src/openapi-examples.generated.ts: the OpenAPI document's parameter and
 * response examples, taken from what `npm run demo` answers on the project's own fixtures.
 *
 *   node --conditions=source --import tsx scripts/openapi-examples.ts
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXAMPLES_MODULE, renderExamplesModule, runDemoForExamples } from '../test/contract/openapi-examples-run.js';

const examples = await runDemoForExamples();
writeFileSync(resolve(import.meta.dirname, '..', EXAMPLES_MODULE), renderExamplesModule(examples));
console.log(`wrote ${EXAMPLES_MODULE}: ${Object.keys(examples).length} operations`);
