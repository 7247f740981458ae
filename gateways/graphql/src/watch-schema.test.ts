/** The watch operations in the schema and the planner: derived from API_REGISTRY, nothing hand-written. */
import { WATCH_REGISTRY } from '@retail/gateway-shared';
import { WatchConditionType, WatchStatus } from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { type GraphQLInputObjectType, type GraphQLObjectType, type GraphQLScalarType, getNamedType, parse } from './graphql.js';
import { type PlanResult, planRequest } from './plan.js';
import { buildRetailSchema } from './schema.js';

const schema = buildRetailSchema();
const limits = { maxDepth: 10, maxOperations: 10 };
const WATCH_ID = '0b5f4c36-1d0c-4b8e-9f1e-3f4a2b1c0d9e';

function plan(query: string, variables?: Record<string, unknown>): PlanResult {
  return planRequest(schema, { document: parse(query), variables }, limits);
}

function calls(query: string, variables?: Record<string, unknown>): Array<[string, Record<string, unknown>]> {
  const result = plan(query, variables);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.plan.calls.map((c) => [c.operation.name, c.request]);
}

const argumentTypes = (type: GraphQLObjectType | null | undefined, field: string) =>
  Object.fromEntries(type!.getFields()[field]!.args.map((a) => [a.name, String(a.type)]));

describe('watch operations in the schema', () => {
  it('puts GET operations on Query and the others on Mutation, under their graphql_fields names', () => {
    const query = Object.keys(schema.getQueryType()!.getFields());
    const mutation = Object.keys(schema.getMutationType()!.getFields());
    expect(query).toEqual(expect.arrayContaining(['retailWatches', 'retailWatch', 'retailProductHistory', 'retailWatchEvents', 'retailWebhookDeliveries']));
    expect(mutation).toEqual(['createRetailWatch', 'updateRetailWatch', 'deleteRetailWatch', 'redeliverRetailWebhook', 'sendRetailWebhookTest', 'createRetailJob', 'cancelRetailJob']);
    for (const op of WATCH_REGISTRY) expect(op.httpMethod === 'GET' ? query : mutation).toContain(op.graphqlFields[0]);
  });

  it('derives input object types for nested message parameters, with enums shared with the output', () => {
    expect(argumentTypes(schema.getMutationType(), 'createRetailWatch')).toMatchObject({
      asin: 'String', domain: 'RetailDomain', intervalSeconds: 'Int', conditions: '[WatchConditionInput!]', webhook: 'WebhookTargetInput', label: 'String',
    });
    expect(argumentTypes(schema.getMutationType(), 'deleteRetailWatch')).toEqual({ id: 'String!' });
    const condition = schema.getType('WatchConditionInput') as GraphQLInputObjectType;
    expect(Object.fromEntries(Object.values(condition.getFields()).map((f) => [f.name, String(f.type)]))).toEqual({ type: 'WatchConditionType!', value: 'Float' });
    const webhook = schema.getType('WebhookTargetInput') as GraphQLInputObjectType;
    expect(Object.fromEntries(Object.values(webhook.getFields()).map((f) => [f.name, String(f.type)]))).toEqual({ url: 'String!' });
    // One enum type whether a request writes it or a response reads it.
    const watchCondition = schema.getType('WatchCondition') as GraphQLObjectType;
    expect(getNamedType(watchCondition.getFields().type!.type)).toBe(getNamedType(condition.getFields().type!.type));
  });

  it('types timestamps as the DateTime string scalar the wire carries', () => {
    const watch = schema.getType('Watch') as GraphQLObjectType;
    expect(String(watch.getFields().createdAt!.type)).toBe('DateTime');
    expect(String((schema.getType('ProductHistoryPoint') as GraphQLObjectType).getFields().at!.type)).toBe('DateTime');
    const scalar = schema.getType('DateTime') as GraphQLScalarType;
    expect(scalar.serialize('2026-11-25T10:00:00.250Z')).toBe('2026-11-25T10:00:00.250Z');
    expect(() => scalar.serialize({ seconds: 1 })).toThrow(/RFC 3339/);
    expect(schema.getType('Timestamp')).toBeUndefined();
  });
});

describe('planning watch operations', () => {
  it('reads nested input objects into the request message, enums as their numbers', () => {
    const query = `mutation { createRetailWatch(asin: "B08N5WRWNW", intervalSeconds: 900, label: "desk",
      conditions: [{ type: PRICE_AT_OR_BELOW, value: 9.5 }, { type: BACK_IN_STOCK }], webhook: { url: "https://hooks.example.com/x" }) { id } }`;
    expect(calls(query)).toEqual([
      ['CreateWatch', {
        asin: 'B08N5WRWNW', intervalSeconds: 900, label: 'desk',
        conditions: [{ type: WatchConditionType.PRICE_AT_OR_BELOW, value: 9.5 }, { type: WatchConditionType.BACK_IN_STOCK }],
        webhook: { url: 'https://hooks.example.com/x' },
      }],
    ]);
  });

  it('replaces conditions when the client wrote them, an empty list included, leaves them otherwise, and keeps a flag the client wrote', () => {
    const update = (args: string) => calls(`mutation { updateRetailWatch(id: "${WATCH_ID}"${args}) { id } }`)[0]?.[1];
    expect(update(', conditions: []')).toEqual({ id: WATCH_ID, conditions: [], replaceConditions: true });
    expect(update(', conditions: [{ type: ANY_CHANGE }]')).toEqual({ id: WATCH_ID, conditions: [{ type: WatchConditionType.ANY_CHANGE }], replaceConditions: true });
    expect(update(', label: "x", status: PAUSED')).toEqual({ id: WATCH_ID, label: 'x', status: WatchStatus.PAUSED });
    expect(update(', conditions: null')).toEqual({ id: WATCH_ID });
    // A flag the client wrote is its own, as on REST and MCP.
    expect(update(', conditions: [], replaceConditions: false')).toEqual({ id: WATCH_ID, conditions: [], replaceConditions: false });
  });

  it('plans mutation fields in document order, one call each, and never a mutation from a query', () => {
    const query = `mutation { b: deleteRetailWatch(id: "${WATCH_ID}") { deleted } a: createRetailWatch(asin: "B08N5WRWNW") { __typename } }`;
    expect(calls(query).map(([name]) => name)).toEqual(['DeleteWatch', 'CreateWatch']);
    expect(calls(`{ retailWatches(limit: 5) { watches { id } nextCursor } retailProductHistory(asin: "B08N5WRWNW", maxPoints: 10) { points { at } } }`)).toEqual([
      ['ListWatches', { limit: 5 }],
      ['GetProductHistory', { asin: 'B08N5WRWNW', maxPoints: 10 }],
    ]);
  });

  it('refuses nested values outside their rules, naming the item as REST names it in the body', () => {
    const bad = plan(`mutation { createRetailWatch(asin: "B08N5WRWNW", conditions: [{ type: ANY_CHANGE }, { type: PRICE_AT_OR_BELOW, value: -1 }], webhook: { url: "ftp://plain.example" }) { id } }`);
    expect(!bad.ok && bad.errors).toEqual([
      { message: 'conditions[1].value must be at least 0', path: ['conditions', '1', 'value'] },
      { message: expect.stringMatching(/^webhook\.url /), path: ['webhook', 'url'] },
    ]);
  });

  it('words refused variables by the rule table, nested ones included', () => {
    const query = 'mutation($c: [WatchConditionInput!], $w: WebhookTargetInput) { createRetailWatch(asin: "B08N5WRWNW", conditions: $c, webhook: $w) { id } }';
    const badEnum = plan(query, { c: [{ type: 'SOON' }] });
    expect(!badEnum.ok && badEnum.errors).toEqual([{ message: expect.stringMatching(/^conditions\[0\]\.type must be one of PRICE_AT_OR_BELOW, /), path: ['conditions'] }]);
    const extra = plan(query, { w: { url: 'https://a.example', secret: 'x' } });
    expect(!extra.ok && extra.errors).toEqual([{ message: 'unknown parameter webhook.secret', path: ['webhook'] }]);
    const inner = plan('mutation($t: WatchConditionType!) { createRetailWatch(asin: "B08N5WRWNW", conditions: [{ type: $t }]) { id } }', { t: 'SOON' });
    expect(!inner.ok && inner.errors).toEqual([{ message: expect.stringMatching(/^type must be one of PRICE_AT_OR_BELOW, /), path: ['type'] }]);
  });
});
