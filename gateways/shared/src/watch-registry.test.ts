import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Domain, GetWatchResponseSchema, JobService, WatchConditionType, WatchSchema, WatchService, WatchStatus, renderData } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { parseParameters, restSourceOf } from './parameters.js';
import { chargedOperations } from './pipeline.js';
import { API_REGISTRY, JOB_REGISTRY, REGISTRY, WATCH_REGISTRY, registryOperation } from './registry.js';
import { parametersJsonSchema, responseJsonSchema } from './schemas.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
// With the formats: "the schema says so" means `date-time` is checked, not ignored.
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

describe('watch operations in the registry', () => {
  it('holds every unary RPC of WatchService after the 17 lookups, with unique names on every interface', () => {
    const unary = WatchService.methods.filter((m) => m.methodKind === 'unary').map((m) => m.name);
    expect(WATCH_REGISTRY.map((op) => op.name)).toEqual(unary);
    expect(unary).not.toContain('StreamWatchEvents');
    expect(API_REGISTRY).toEqual([...REGISTRY, ...WATCH_REGISTRY, ...JOB_REGISTRY]);
    expect(JOB_REGISTRY.map((op) => op.name)).toEqual(JobService.methods.filter((m) => m.methodKind === 'unary').map((m) => m.name));
    // The items the gateway refused are set by the gateways, never a client's parameter.
    expect(registryOperation('CreateJob').parameters.map((p) => p.name)).toEqual(['items', 'label', 'webhook']);
    for (const key of ['operationId', 'mcpTool'] as const) {
      expect(new Set(API_REGISTRY.map((op) => op[key])).size).toBe(API_REGISTRY.length);
    }
    const routes = API_REGISTRY.map((op) => `${op.httpMethod} ${op.restPath}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('derives method, billing, path parameters and hints from the proto options', () => {
    const create = registryOperation('CreateWatch');
    expect([create.httpMethod, create.billing, create.readOnly, create.idempotent, create.service]).toEqual(['POST', 'free', false, false, 'retail.v1.WatchService']);
    const remove = registryOperation('DeleteWatch');
    expect([remove.httpMethod, remove.readOnly, remove.idempotent]).toEqual(['DELETE', false, true]);
    expect(remove.pathParameters.map((p) => p.name)).toEqual(['id']);
    expect(registryOperation('RedeliverWebhook').pathParameters.map((p) => p.name)).toEqual(['watchId', 'deliveryId']);
    const history = registryOperation('GetProductHistory');
    expect([history.httpMethod, history.billing, history.readOnly]).toEqual(['GET', 'metered', true]);
    expect(chargedOperations(history)).toEqual(['GetProductHistory']);
    expect(chargedOperations(create)).toEqual([]);
    for (const op of REGISTRY) expect([op.httpMethod, op.billing, op.service]).toEqual(['GET', 'metered', 'retail.v1.RetailService']);
  });

  it('reads a create body with nested conditions and webhook into the request message', () => {
    const op = registryOperation('CreateWatch');
    const parsed = parseParameters(
      op,
      { asin: ' B08N5WRWNW ', intervalSeconds: 900, conditions: [{ type: 'PRICE_AT_OR_BELOW', value: 9.5 }, { type: 'BACK_IN_STOCK' }], webhook: { url: 'https://hooks.example.com/x' } },
      'rest',
      restSourceOf(op),
    );
    expect(parsed).toEqual({
      ok: true,
      request: {
        asin: 'B08N5WRWNW',
        intervalSeconds: 900,
        conditions: [{ type: WatchConditionType.PRICE_AT_OR_BELOW, value: 9.5 }, { type: WatchConditionType.BACK_IN_STOCK }],
        webhook: { url: 'https://hooks.example.com/x' },
      },
    });
  });

  it('points body errors at the body and nested errors at the item, naming it as the client wrote it', () => {
    const op = registryOperation('CreateWatch');
    const parse = (body: Record<string, unknown>) => parseParameters(op, body, 'rest', restSourceOf(op));
    expect(parse({ asin: 'B08N5WRWNW', intervalSeconds: '900' })).toEqual({ ok: false, errors: [{ message: 'intervalSeconds must be an integer', path: ['body', 'intervalSeconds'] }] });
    expect(parse({ asin: 'B08N5WRWNW', conditions: [{ type: 'BACK_IN_STOCK' }, { type: 'SOON' }] })).toMatchObject({
      ok: false,
      errors: [{ message: expect.stringMatching(/^conditions\[1\]\.type must be one of PRICE_AT_OR_BELOW, /), path: ['body', 'conditions', '1', 'type'] }],
    });
    expect(parse({ asin: 'B08N5WRWNW', webhook: { url: 'https://a.example', secret: 'x' } })).toEqual({
      ok: false,
      errors: [{ message: 'unknown parameter webhook.secret', path: ['body', 'webhook', 'secret'] }],
    });
    expect(parse({ asin: 'B08N5WRWNW', webhook: 'https://a.example' })).toEqual({ ok: false, errors: [{ message: 'webhook must be an object', path: ['body', 'webhook'] }] });
    expect(parse({ asin: 'B08N5WRWNW', conditions: [{}] })).toEqual({ ok: false, errors: [{ message: 'conditions[0].type is required', path: ['body', 'conditions', '0', 'type'] }] });
  });

  it('reads path parameters as text and refuses unknown body fields', () => {
    const op = registryOperation('UpdateWatch');
    const parsed = parseParameters(op, { id: '0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e', label: 'desk', bogus: 1 }, 'rest', restSourceOf(op));
    expect(parsed).toEqual({ ok: false, errors: [{ message: 'unknown parameter bogus', path: ['body', 'bogus'] }] });
    expect(parseParameters(op, { id: 'nope' }, 'rest', restSourceOf(op))).toMatchObject({ ok: false, errors: [{ path: ['path', 'id'] }] });
  });

  it('publishes nested objects in the JSON schema that accepts what the parser accepts', () => {
    const validate = ajv.compile(parametersJsonSchema(registryOperation('CreateWatch')));
    expect(validate({ asin: 'B08N5WRWNW', conditions: [{ type: 'PRICE_DROP_PERCENT', value: 10 }], webhook: { url: 'https://x.example/h' } })).toBe(true);
    expect(validate({ asin: 'B08N5WRWNW', conditions: [{ value: 10 }] })).toBe(false);
    expect(validate({ asin: 'B08N5WRWNW', webhook: { url: 'https://x.example/h', extra: true } })).toBe(false);
  });
});

describe('implied replace flags', () => {
  const update = registryOperation('UpdateWatch');
  const id = '0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e';
  const parse = (input: Record<string, unknown>, style: 'rest' | 'graphql' | 'mcp' = 'mcp') =>
    parseParameters(update, input, style, style === 'rest' ? restSourceOf(update) : undefined);

  it('set replaceConditions when conditions are given, even an empty list, on every interface', () => {
    for (const style of ['rest', 'graphql', 'mcp'] as const) {
      expect(parse({ id, conditions: [{ type: 'BACK_IN_STOCK' }] }, style)).toMatchObject({ ok: true, request: { replaceConditions: true, conditions: [{ type: WatchConditionType.BACK_IN_STOCK }] } });
      expect(parse({ id, conditions: [] }, style)).toMatchObject({ ok: true, request: { replaceConditions: true, conditions: [] } });
    }
  });

  it('leave a flag the client sent, a list not given (GraphQL null included) and other operations alone', () => {
    expect(parse({ id, label: 'desk' })).toEqual({ ok: true, request: { id, label: 'desk' } });
    expect(parse({ id, conditions: null }, 'graphql')).toEqual({ ok: true, request: { id } });
    expect(parse({ id, conditions: [], replaceConditions: false })).toMatchObject({ ok: true, request: { replaceConditions: false } });
    expect(parseParameters(registryOperation('CreateWatch'), { asin: 'B08N5WRWNW', conditions: [] }, 'mcp')).toEqual({ ok: true, request: { asin: 'B08N5WRWNW', conditions: [] } });
  });
});

describe('watch responses', () => {
  it('render timestamps as RFC 3339 strings and the schema says so', () => {
    const op = registryOperation('GetWatch');
    const at = new Date('2026-11-25T10:00:00.250Z');
    const response = create(GetWatchResponseSchema, {
      retailWatch: create(WatchSchema, { id: '0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e', asin: 'B08N5WRWNW', domain: Domain.US, intervalSeconds: 900, status: WatchStatus.ACTIVE, createdAt: timestampFromDate(at) }),
    });
    const data = renderData(op.response, response);
    expect(data.retailWatch).toMatchObject({ createdAt: '2026-11-25T10:00:00.250Z', lastRefreshAt: null, webhook: null, label: null, status: 'ACTIVE', conditions: [] });
    const validate = ajv.compile(responseJsonSchema(op));
    expect(validate({ data })).toBe(true);
    // The format is enforced: a timestamp in another form is refused by the same schema.
    expect(validate({ data: { ...data, retailWatch: { ...(data.retailWatch as object), createdAt: '25/11/2026 10:00' } } })).toBe(false);
  });
});
