/**
 * The JSON Schema validator the suites check documents and answers with: Ajv for draft 2020-12 (as
 * OpenAPI 3.1 and MCP tool schemas use it), every error reported, and the formats (`date-time`,
 * `uri`) checked rather than ignored, as a client that loads ajv-formats checks them.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS: its default import is typed as the module, not as the function it is.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function createSchemaValidator(): Ajv2020 {
  return addFormats(new Ajv2020({ strict: false, allErrors: true }));
}
