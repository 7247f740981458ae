/**
 * GraphQL driver: turns an operation call into the query docs/contract.md's GraphQL section describes
 * (root field named by the data root, flat arguments as declared variables, nested arguments on
 * their field, every field of the record selected), reading argument types from the gateway's own
 * introspection through graphql-js `buildClientSchema`. Its `data` is normalized to the wire JSON
 * (GraphQL answers null for a field the record omits) so it compares with REST's.
 */
import { type DescField, type DescMessage, getOption } from '@bufbuild/protobuf';
import { wire } from '@retail/contract';
import { type Operation, registryOperation } from '@retail/gateway-shared';
import { createGraphqlGateway } from '@retail/graphql';
import { type GraphQLSchema, buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import type { Driver, DriverFactory, DriverResult, EnvelopeEntry } from '../driver.js';

/** How often one message type may repeat along a selection path (the category tree is recursive). */
const MAX_REPEATS = 2;

function selection(message: DescMessage, args: Map<string, string>, seen: readonly string[] = []): string {
  const parts: string[] = [];
  for (const field of message.fields) {
    const sub = field.fieldKind === 'message' ? field.message : field.fieldKind === 'list' && field.listKind === 'message' ? field.message : undefined;
    const fieldArgs = seen.length === 0 ? args.get(field.jsonName) ?? '' : '';
    if (!sub) {
      parts.push(field.jsonName);
      continue;
    }
    if (seen.filter((t) => t === sub.typeName).length >= MAX_REPEATS) continue;
    parts.push(`${field.jsonName}${fieldArgs} { ${selection(sub, args, [...seen, sub.typeName])} }`);
  }
  return parts.join(' ');
}

function dataMessage(op: Operation): DescMessage | undefined {
  return op.response.fields.find((f) => f.jsonName === op.dataRoot)?.message;
}

interface Built {
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

/** The query for one call; parameters the operation does not take travel as undeclared variables. */
export function buildQuery(op: Operation, params: Record<string, unknown>, schema: GraphQLSchema): Built {
  const root = op.graphqlFields[0]!.split('.')[0]!;
  const rootField = schema.getQueryType()!.getFields()[root]!;
  const declarations: string[] = [];
  const rootArgs: string[] = [];
  const nested = new Map<string, string[]>();
  const variables: Array<[string, unknown]> = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    variables.push([name, value]);
    const p = op.parameters.find((q) => q.name === name);
    if (!p) continue;
    const holder = p.graphqlArgumentOf
      ? (schema.getType(rootField.type.toString().replace(/[[\]!]/g, '')) as { getFields(): Record<string, { args: readonly { name: string; type: unknown }[] }> })
          .getFields()[p.graphqlArgumentOf]
      : rootField;
    const arg = holder?.args.find((a) => a.name === name);
    if (!arg) continue;
    declarations.push(`$${name}: ${String(arg.type)}`);
    if (p.graphqlArgumentOf) nested.set(p.graphqlArgumentOf, [...(nested.get(p.graphqlArgumentOf) ?? []), `${name}: $${name}`]);
    else rootArgs.push(`${name}: $${name}`);
  }
  const message = dataMessage(op);
  const args = new Map([...nested].map(([field, list]) => [field, `(${list.join(', ')})`]));
  const body = message ? ` { ${selection(message, args)} }` : '';
  const query = `query${declarations.length ? `(${declarations.join(', ')})` : ''} { ${root}${rootArgs.length ? `(${rootArgs.join(', ')})` : ''}${body} }`;
  return { query, variables: Object.fromEntries(variables) };
}

/** GraphQL null for a field the wire JSON omits → omitted; nullable fields keep their null. */
function normalizeField(value: unknown, field: DescField): unknown {
  if (value === null) return getOption(field, wire).nullable ? null : undefined;
  if (field.fieldKind === 'list' && field.listKind === 'message') return (value as unknown[]).map((v) => normalizeMessage(v, field.message));
  if (field.fieldKind === 'message') return normalizeMessage(value, field.message);
  return value;
}

function normalizeMessage(value: unknown, message: DescMessage): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const field = message.fields.find((f) => f.jsonName === key);
    const normalized = field ? normalizeField(v, field) : v;
    if (normalized !== undefined) out[key] = normalized;
  }
  return out;
}

export function normalizeData(op: Operation, data: Record<string, unknown>): Record<string, unknown> {
  return normalizeMessage(data, op.response);
}

type GraphqlError = { message?: unknown; code?: unknown; path?: unknown; extensions?: { code?: unknown; argumentPath?: unknown } };

export const graphqlDriver: DriverFactory = {
  name: 'graphql',
  mount: async (app, deps) => {
    app.use(await createGraphqlGateway({ core: deps.core, metering: deps.metering }));
  },
  async create(stack) {
    const url = `${stack.baseUrl}/api/graphql`;
    const { accountId } = await stack.metering.admin.createAccount({ units: 0, plan: 'unlimited' });
    const introspectionKey = (await stack.metering.admin.createKey(accountId)).key;
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'API-KEY': introspectionKey }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
    const schema = buildClientSchema(((await res.json()) as { data: IntrospectionQuery }).data);

    const driver: Driver = {
      name: 'graphql',
      async call(opName, params, auth) {
        const op = registryOperation(opName);
        const { query, variables } = buildQuery(op, params, schema);
        const headers: Record<string, string> = { 'content-type': 'application/json', ...(auth.key !== undefined ? { 'API-KEY': auth.key } : {}), ...auth.headers };
        const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
        const violations: string[] = [];
        const text = await response.text();
        let body: { data?: Record<string, unknown> | null; errors?: GraphqlError[]; extensions?: { unitsCharged?: unknown }; success?: unknown } = {};
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          violations.push(`body is not JSON: ${text.slice(0, 80)}`);
        }
        if (!(response.headers.get('content-type') ?? '').includes('json')) violations.push(`content-type ${response.headers.get('content-type')}`);
        if (!response.headers.get('x-request-id')) violations.push('no X-Request-Id');
        const headerUnits = Number(response.headers.get('x-units-charged') ?? 0);
        const base = { headers: response.headers, violations };
        if (response.status !== 200) {
          // Request-level refusal: the envelope itself.
          if (body.success !== false) violations.push(`HTTP ${response.status} without the envelope`);
          const errors = (body.errors ?? []) as unknown as EnvelopeEntry[];
          return { ...base, status: response.status, errors, unitsCharged: headerUnits };
        }
        const units = typeof body.extensions?.unitsCharged === 'number' ? body.extensions.unitsCharged : 0;
        if (units !== headerUnits) violations.push(`extensions.unitsCharged ${units} but X-Units-Charged ${headerUnits}`);
        if (body.errors && body.errors.length > 0) {
          const errors: EnvelopeEntry[] = body.errors.map((e) => {
            if (typeof e.code !== 'number' || e.code !== e.extensions?.code) violations.push(`error entry without matching code and extensions.code: ${JSON.stringify(e)}`);
            if (!Array.isArray(e.path)) violations.push(`error entry without path: ${JSON.stringify(e)}`);
            const path = Array.isArray(e.extensions?.argumentPath) ? e.extensions.argumentPath : e.path;
            return { code: Number(e.code), message: String(e.message), ...(Array.isArray(path) ? { path: path.map(String) } : {}) };
          });
          return { ...base, status: errors[0]!.code, errors, unitsCharged: units } satisfies DriverResult;
        }
        return { ...base, status: 200, data: normalizeData(op, body.data ?? {}), unitsCharged: units };
      },
    };
    return driver;
  },
};
