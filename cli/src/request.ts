/**
 * One operation call as an HTTP request, routed as the REST gateway routes it (the registry's
 * restPath and httpMethod): path parameters in the path, a GET's other parameters in the query
 * string as the user typed them, another method's in a JSON body typed by the parameter's kind.
 * Values are not checked here: the gateway checks every rule and answers a broken one with a 400
 * that names it, so the rules keep one reader.
 */
import type { Operation, Parameter } from '@retail/gateway-shared/registry';
import { UsageError } from './exit-codes.js';

/** Parameter values as the command line gives them: text, or true for a flag. */
export type CliValues = Readonly<Record<string, string | true>>;

export interface ApiRequest {
  readonly method: string;
  /** Path and query, e.g. `/api/retail/product?asin=B0…&domain=DE`. */
  readonly pathAndQuery: string;
  readonly body?: unknown;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A body value typed by the parameter's kind; a value that does not read as that kind is sent as typed, for the gateway to refuse. */
function bodyValue(p: Parameter, value: string | true): unknown {
  if (value === true) return true;
  switch (p.kind) {
    case 'integer':
    case 'number':
      return NUMBER.test(value) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'string-list':
    case 'enum-list':
      return value.split(',');
    case 'object':
    case 'object-list':
      try {
        return JSON.parse(value) as unknown;
      } catch {
        throw new UsageError(`--${p.name} takes JSON: ${value.length > 40 ? `${value.slice(0, 40)}…` : value} is not`);
      }
    default:
      return value;
  }
}

/** The given values of `parameters` as JSON typed by kind: a body, or a batch item's params. */
function typedValues(parameters: readonly Parameter[], values: CliValues): Record<string, unknown> {
  return Object.fromEntries(parameters.filter((p) => values[p.name] !== undefined).map((p) => [p.name, bodyValue(p, values[p.name]!)]));
}

/** A batch item's `params`: every given parameter, typed as a JSON body types it (docs/rest.md, Batch calls). */
export function batchParams(op: Operation, values: CliValues): Record<string, unknown> {
  return typedValues(op.parameters, values);
}

export function buildRequest(op: Operation, values: CliValues): ApiRequest {
  let path = op.restPath;
  for (const p of op.pathParameters) {
    const value = values[p.name];
    // A missing path parameter is the gateway's to name; an empty segment keeps the route's shape.
    path = path.replace(`{${p.field.name}}`, encodeURIComponent(typeof value === 'string' ? value : ''));
  }
  const rest = op.parameters.filter((p) => !op.pathParameters.includes(p) && values[p.name] !== undefined);
  if (op.httpMethod === 'GET') {
    const query = new URLSearchParams(rest.map((p): [string, string] => [p.name, String(values[p.name])]));
    const search = query.toString();
    return { method: 'GET', pathAndQuery: search ? `${path}?${search}` : path };
  }
  const body = typedValues(rest, values);
  return { method: op.httpMethod, pathAndQuery: path, ...(op.httpMethod === 'DELETE' && rest.length === 0 ? {} : { body }) };
}
