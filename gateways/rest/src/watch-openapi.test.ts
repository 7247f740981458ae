import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { WATCH_REGISTRY } from '@retail/gateway-shared';
import { describe, expect, it } from 'vitest';
import { buildOpenApi, openApiPath } from './openapi.js';

type OperationObject = {
  operationId: string;
  description: string;
  tags: string[];
  parameters: Array<{ name: string; in: string; required: boolean }>;
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { headers?: Record<string, { description: string }>; description?: string }>;
};

const doc = buildOpenApi();
const paths = doc.paths as Record<string, Record<string, OperationObject>>;
const at = (path: string, method: string) => paths[path]![method]!;

describe('OpenAPI document of the watch operations', () => {
  it('is valid OpenAPI 3.1 and holds every watch operation under its method, path templates named as the parameters', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    for (const op of WATCH_REGISTRY) expect(at(openApiPath(op), op.httpMethod.toLowerCase()).operationId).toBe(op.operationId);
    expect(Object.keys(paths['/api/retail/watches/{id}']!).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(paths['/api/retail/watches']!).sort()).toEqual(['get', 'post']);
    expect(paths).toHaveProperty(['/api/retail/watches/{watchId}/deliveries/{deliveryId}/redeliver', 'post']);
  });

  it('puts path parameters in the path (required) and the other fields of a write in a JSON body', () => {
    const update = at('/api/retail/watches/{id}', 'patch');
    expect(update.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
    const body = update.requestBody!.content['application/json']!.schema as { properties: Record<string, unknown>; additionalProperties: boolean };
    expect(Object.keys(body.properties)).toEqual(['label', 'intervalSeconds', 'conditions', 'replaceConditions', 'webhook', 'removeWebhook', 'status']);
    expect(body.additionalProperties).toBe(false);
    expect(update.requestBody!.required).toBe(false);
    const create = at('/api/retail/watches', 'post');
    expect(create.parameters).toEqual([]);
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const validate = addFormats(new Ajv2020({ strict: false })).compile(create.requestBody!.content['application/json']!.schema);
    expect(validate({ asin: 'B08N5WRWNW', conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9.5 }], webhook: { url: 'https://h.example/x' } })).toBe(true);
    expect(validate({ asin: 'B08N5WRWNW', conditions: [{ value: 9.5 }] })).toBe(false);
    expect(at('/api/retail/watches/{id}', 'delete').requestBody).toBeUndefined();
    expect(at('/api/retail/watches/{watchId}/deliveries/{deliveryId}/redeliver', 'post').parameters.map((p) => [p.name, p.in])).toEqual([['watchId', 'path'], ['deliveryId', 'path']]);
    expect(at('/api/retail/watches/{watchId}/deliveries', 'get').parameters.map((p) => [p.name, p.in])).toEqual([['watchId', 'path'], ['limit', 'query'], ['cursor', 'query']]);
  });

  it('says which operations are free (always 0 units, no 402) and that history costs one unit', () => {
    const list = at('/api/retail/watches', 'get');
    expect(list.description).toMatch(/^Free/);
    expect(list.responses['200']!.headers!['X-Units-Charged']!.description).toMatch(/Always 0/);
    expect(list.responses).not.toHaveProperty('402');
    expect(list.tags).toEqual(['watches']);
    const history = at('/api/retail/product/history', 'get');
    expect(history.description).toMatch(/One unit/);
    expect(history.responses).toHaveProperty('402');
    expect(history.responses['200']!.headers!['X-Units-Charged']!.description).toMatch(/1 on success/);
    expect(at('/api/retail/watches/{id}', 'get').responses['404']!.description).toMatch(/for this account/);
  });
});
