/**
 * The Portman configuration for the third-party conformance runner's happy path
 * (../shared/conformance, runners/openapi-portman-prism.mjs with PORTMAN_CONFIG), derived from the
 * OpenAPI examples: Portman sends only required parameters, and a lookup's key is one of several
 * optional ones (exactly one of asin, url, gtin), so each operation's working request from the
 * examples is switched on; the watch and the job the run creates are the ones the other watch and
 * job operations name (ids are read from the answers that made them), and deleting comes last. The runner's own tests
 * and variations are kept as they are. The stack under test must accept the examples' webhook, a
 * closed loopback port (WEBHOOK_ALLOW_PRIVATE_TARGETS=true).
 */
import { API_REGISTRY } from '@retail/gateway-shared';
import { OPENAPI_EXAMPLES } from '../../gateways/rest/src/openapi-examples.generated.js';
import { buildOpenApi, openApiPath } from '../../gateways/rest/src/openapi.js';

/** `data.retailWebhookDeliveries.deliveries[0].id` → `deliveriesId`, `data.retailWatch.id` → `retailWatchId`. */
function variableOf(path: string): string {
  const owner = path.split('.').slice(-2, -1)[0]!.replace(/\[\d+\]$/, '');
  return `${owner}Id`;
}

interface PortmanConfig {
  overwrites?: unknown[];
  assignVariables?: unknown[];
  globals?: { orderOfOperations?: string[]; [key: string]: unknown };
  [key: string]: unknown;
}

/** The path (`data.a.b[0].id`) of the first `id` key holding `value` in a response, if any. */
function idPath(node: unknown, value: unknown, path = ''): string | undefined {
  if (Array.isArray(node)) return node.map((x, i) => idPath(x, value, `${path}[${i}]`)).find(Boolean);
  if (!node || typeof node !== 'object') return undefined;
  for (const [k, v] of Object.entries(node)) {
    const at = path ? `${path}.${k}` : k;
    if (k === 'id' && v === value) return at;
    const inner = idPath(v, value, at);
    if (inner) return inner;
  }
  return undefined;
}

type Op = (typeof API_REGISTRY)[number];

export function happyPathConfig(base: PortmanConfig): PortmanConfig {
  // The watch is made first: the other watch operations name it.
  const create = API_REGISTRY.find((op) => op.httpMethod === 'POST' && op.pathParameters.length === 0 && op.service === 'retail.v1.WatchService');
  if (!create) throw new Error('no watch-creating operation in the registry');
  const deletes = API_REGISTRY.filter((op) => op.httpMethod === 'DELETE');
  const order: Op[] = [create, ...API_REGISTRY.filter((op) => op !== create && !deletes.includes(op)), ...deletes];
  // An id a watch or job operation names is the one the nearest earlier operation answered (the created watch, a
  // listed delivery): Portman reads it from that answer into a variable rather than sending the example's.
  const assigned = new Map<string, { variable: string; from: Op; path: string }>();
  for (const [i, op] of order.entries()) {
    if (op.service === 'retail.v1.RetailService') continue;
    for (const v of Object.values(OPENAPI_EXAMPLES[op.operationId]?.request ?? {})) {
      if (typeof v !== 'string' || assigned.has(v)) continue;
      const from = order.slice(0, i).reverse().find((earlier) => idPath(OPENAPI_EXAMPLES[earlier.operationId]?.response, v));
      const path = from && idPath(OPENAPI_EXAMPLES[from.operationId]?.response, v);
      // Named after where it is read (`data.retailJob.id` → retailJobId), so a watch's and a job's never meet.
      if (from && path) assigned.set(v, { variable: variableOf(path), from, path });
    }
  }
  const value = (v: unknown) => (typeof v === 'string' && assigned.has(v) ? `{{${assigned.get(v)!.variable}}}` : String(v));
  const overwrites = API_REGISTRY.flatMap((op) => {
    const example = OPENAPI_EXAMPLES[op.operationId];
    if (!example) return [];
    const inQuery = op.parameters.filter((p) => op.httpMethod === 'GET' && !op.pathParameters.includes(p) && example.request[p.name] !== undefined);
    const query = inQuery.map((p) => ({ key: p.name, value: value(example.request[p.name]), overwrite: true, disable: false }));
    const path = op.pathParameters.filter((p) => example.request[p.name] !== undefined).map((p) => ({ key: p.name, value: value(example.request[p.name]), overwrite: true }));
    return [{
      openApiOperationId: op.operationId,
      ...(query.length > 0 ? { overwriteRequestQueryParams: query } : {}),
      ...(path.length > 0 ? { overwriteRequestPathVariables: path } : {}),
    }].filter((o) => Object.keys(o).length > 1);
  });
  // Routes beyond the registry (a job's download and its events) name their job by the example in
  // their path parameter's schema: the same job, read from the same answer.
  // newman and Prism read a body as one JSON document, which an NDJSON download is only when it is
  // one line: the download resumes at the last result (its `cursor` example), so both can check it.
  const registered = new Set(API_REGISTRY.map((op) => op.operationId));
  const documented = Object.values(buildOpenApi().paths as Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string; schema?: { examples?: unknown[] } }[] }>>)
    .flatMap((methods) => Object.values(methods))
    .filter((op) => !registered.has(op.operationId))
    .flatMap((op) => {
      const example = (p: { schema?: { examples?: unknown[] } }) => p.schema?.examples?.[0];
      const path = (op.parameters ?? []).filter((p) => p.in === 'path' && assigned.has(example(p) as string)).map((p) => ({ key: p.name, value: value(example(p)), overwrite: true }));
      const cursor = (op.parameters ?? []).filter((p) => p.in === 'query' && p.name === 'cursor' && example(p) !== undefined).map((p) => ({ key: p.name, value: String(example(p)), overwrite: true, disable: false }));
      if (path.length === 0) return [];
      return [{ openApiOperationId: op.operationId, overwriteRequestPathVariables: path, ...(cursor.length > 0 ? { overwriteRequestQueryParams: cursor } : {}) }];
    });
  const assignVariables = [...assigned.values()].map(({ variable, from, path }) => ({ openApiOperationId: from.operationId, collectionVariables: [{ responseBodyProp: path, name: variable }] }));
  return {
    ...base,
    overwrites: [...(base.overwrites ?? []), ...overwrites, ...documented],
    assignVariables: [...(base.assignVariables ?? []), ...assignVariables],
    globals: { ...base.globals, orderOfOperations: order.map((op) => `${op.httpMethod}::${openApiPath(op)}`) },
  };
}
