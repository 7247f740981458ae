/**
 * The OpenAPI document's examples: an example for every parameter and a response example per
 * operation, each valid against the schema it illustrates, and the generated file they come from is
 * what `npm run demo` answers today (regenerate with scripts/openapi-examples.ts).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPENAPI_EXAMPLES } from '../../gateways/rest/src/openapi-examples.generated.js';
import { buildOpenApi } from '../../gateways/rest/src/openapi.js';
import { EXAMPLES_MODULE, renderExamplesModule, runDemoForExamples } from './openapi-examples-run.js';
import { createSchemaValidator } from '../harness/json-schema.js';
import { createResponseValidator } from './openapi-validator.js';

const DOC_ID = 'https://retail.invalid/openapi.json';
const doc = buildOpenApi();

interface OperationObject {
  operationId: string;
  parameters?: { name: string; in: string; example?: unknown; schema: { examples?: unknown[] } }[];
  requestBody?: { content: { 'application/json'?: { schema: { properties: Record<string, { examples?: unknown[] }> }; example?: unknown } } };
  responses: Record<string, { content?: { 'application/json'?: { example?: unknown } } }>;
}
const paths = doc.paths as Record<string, Record<string, OperationObject>>;
const operations = Object.entries(paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ path, method, op })))
  .filter(({ op }) => op.operationId !== 'get_OpenApi' && op.operationId !== 'get_Account');
/** The success an operation answers as JSON (`202` for a job's create), or none for a stream (a job's download, its events). */
const jsonSuccess = (op: OperationObject) => ['200', '202'].map((status) => ({ status, media: op.responses[status]?.content?.['application/json'] })).find((s) => s.media !== undefined);

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

describe('the OpenAPI examples', () => {
  const ajv = createSchemaValidator();
  ajv.addSchema({ ...doc, $id: DOC_ID });
  const valid = (ref: string, value: unknown) => {
    const validate = ajv.compile({ $ref: `${DOC_ID}#/${ref}` });
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };

  it('give GET /api/account a response example its schema accepts', () => {
    const example = paths['/api/account']!.get!.responses['200']!.content!['application/json']!.example as { data: { plan: string; usage: unknown[] } };
    expect(example.data.plan).toBe('development');
    expect(example.data.usage.length).toBeGreaterThan(0);
    expect(valid(pointer('paths', '/api/account', 'get', 'responses', '200', 'content', 'application/json', 'schema'), example)).toEqual([]);
  });

  it('give every parameter of every operation an example its schema accepts', () => {
    const problems: string[] = [];
    for (const { path, method, op } of operations) {
      (op.parameters ?? []).forEach((p, i) => {
        // The working request's parameters as `example` (explorers fill them in), the others in the schema.
        const example = p.example ?? p.schema.examples?.[0];
        if (example === undefined) problems.push(`${op.operationId} ${p.name}: no example`);
        else problems.push(...valid(pointer('paths', path, method, 'parameters', String(i), 'schema'), example).map((e) => `${op.operationId} ${p.name}: ${e}`));
      });
      // A form filled with the `example`s alone is a working request: one lookup key, never three.
      // With a JSON body the request is the body's: a query parameter then serves the other media types.
      const filled = (op.parameters ?? []).filter((p) => p.example !== undefined).map((p) => p.name).sort();
      const takesBody = op.requestBody?.content['application/json'] !== undefined;
      const inRequest = (name: string) => (op.parameters ?? []).some((p) => p.name === name && (p.in === 'path' || !takesBody));
      expect(filled, op.operationId).toEqual(Object.keys(OPENAPI_EXAMPLES[op.operationId]?.request ?? {}).filter(inRequest).sort());
      const body = op.requestBody?.content['application/json'];
      if (!body) continue;
      for (const [name, property] of Object.entries(body.schema.properties)) {
        if (property.examples === undefined) problems.push(`${op.operationId} body.${name}: no example`);
        else problems.push(...valid(pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema', 'properties', name), property.examples[0]).map((e) => `${op.operationId} body.${name}: ${e}`));
      }
      problems.push(...valid(pointer('paths', path, method, 'requestBody', 'content', 'application/json', 'schema'), body.example).map((e) => `${op.operationId} body: ${e}`));
    }
    expect(problems).toEqual([]);
  });

  it('give every operation answering JSON a response example its success schema accepts', () => {
    const validator = createResponseValidator(doc);
    const without = operations.filter(({ op }) => jsonSuccess(op) && jsonSuccess(op)?.media?.example === undefined).map(({ op }) => op.operationId);
    expect(without).toEqual([]);
    const problems = operations.flatMap(({ path, method, op }) => {
      const success = jsonSuccess(op);
      return success ? validator.check(path, Number(success.status), success.media?.example, method).map((e) => `${op.operationId}: ${e}`) : [];
    });
    expect(problems).toEqual([]);
  });

  it('are what the demo answers today (regenerate: node --conditions=source --import tsx scripts/openapi-examples.ts)', async () => {
    const committed = readFileSync(resolve(import.meta.dirname, '../..', EXAMPLES_MODULE), 'utf8');
    expect(renderExamplesModule(await runDemoForExamples())).toBe(committed);
  }, 120_000);
});
