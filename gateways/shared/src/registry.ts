/**
 * The operation registry: the 17 lookups of RetailService and the watch operations of
 * WatchService with their client-facing names and parameters, derived from the proto descriptors
 * and their custom options. REST routes, OpenAPI, the GraphQL schema and the MCP tool list are all
 * generated from these lists; nothing about an operation is typed twice.
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import { MethodOptions_IdempotencyLevel as IdempotencyLevel } from '@bufbuild/protobuf/wkt';
import { FieldMaskSchema } from '@bufbuild/protobuf/wkt';
import { Billing, JOB_OPERATIONS, OPERATIONS, type OperationDescriptor, META_FIELD, type ParameterRules, WATCH_OPERATIONS, fieldEnum, isClientParameter, parameterRules, recordOfResponse, wireEnumValues } from '@retail/contract';

export { wireEnumValues };

/**
 * How a parameter is written by a client. `field-mask`: a request's `read_mask`, written `fields` as
 * its JSON form is (one string of comma-separated dotted wire names, `title,price.value`), checked
 * against the operation's record; GraphQL has no such argument, its selection set selects.
 */
export type ParameterKind = 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'string-list' | 'enum-list' | 'object' | 'object-list' | 'field-mask';

/** A parameter as the gateways handle it: its declared rules (read once, in @retail/contract) and how a client writes it. */
export interface Parameter extends ParameterRules {
  readonly kind: ParameterKind;
  /** The enum itself, to turn names back into numbers. */
  readonly enumDesc?: DescEnum;
  /** Objects (a JSON body's nested message, e.g. a watch's conditions): the message's own parameters. */
  readonly fields?: readonly Parameter[];
  /** Objects: the nested message. */
  readonly message?: DescMessage;
  /** field-mask: the record its paths name (the message of the operation's data root). */
  readonly record?: DescMessage;
}

/** HTTP method of an operation's REST route. */
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface Operation extends OperationDescriptor {
  readonly restPath: string;
  readonly operationId: string;
  readonly mcpTool: string;
  readonly summary: string;
  readonly graphqlFields: readonly string[];
  readonly request: DescMessage;
  readonly response: DescMessage;
  /** Wire name of the response field that is the `data` root ("retailProduct"). */
  readonly dataRoot: string;
  readonly parameters: readonly Parameter[];
  /** REST method; GET operations are GraphQL queries, the others mutations. */
  readonly httpMethod: HttpMethod;
  /** 'metered': one unit per success; 'free': a valid key and the rate limit, never a unit. */
  readonly billing: 'metered' | 'free';
  /** Parameters named in the REST path (`{id}`), in path order; the other parameters of a non-GET operation are the JSON body. */
  readonly pathParameters: readonly Parameter[];
  /** Full name of the gRPC service that serves it: the core's RetailService or the watcher's WatchService. */
  readonly service: string;
  /** From the RPC's idempotency_level: NO_SIDE_EFFECTS reads, IDEMPOTENT writes may be repeated. */
  readonly readOnly: boolean;
  readonly idempotent: boolean;
}

const INTEGER_SCALARS = new Set<ScalarType>([
  ScalarType.INT32, ScalarType.INT64, ScalarType.UINT32, ScalarType.UINT64,
  ScalarType.SINT32, ScalarType.SINT64, ScalarType.FIXED32, ScalarType.FIXED64,
  ScalarType.SFIXED32, ScalarType.SFIXED64,
]);

export function scalarKind(scalar: ScalarType): 'string' | 'integer' | 'number' | 'boolean' {
  if (INTEGER_SCALARS.has(scalar)) return 'integer';
  if (scalar === ScalarType.DOUBLE || scalar === ScalarType.FLOAT) return 'number';
  if (scalar === ScalarType.BOOL) return 'boolean';
  return 'string';
}

function parameterKind(field: DescField): ParameterKind {
  switch (field.fieldKind) {
    case 'scalar':
      return scalarKind(field.scalar);
    case 'enum':
      return 'enum';
    case 'message':
      return field.message.typeName === FieldMaskSchema.typeName ? 'field-mask' : 'object';
    case 'list':
      if (field.listKind === 'enum') return 'enum-list';
      if (field.listKind === 'scalar' && scalarKind(field.scalar) === 'string') return 'string-list';
      if (field.listKind === 'message') return 'object-list';
      break;
    default:
      break;
  }
  throw new Error(`request field ${field.parent.typeName}.${field.name} has a kind no interface can carry`);
}

function nestedMessage(field: DescField): DescMessage | undefined {
  if (field.fieldKind === 'message') return field.message;
  if (field.fieldKind === 'list' && field.listKind === 'message') return field.message;
  return undefined;
}

function buildParameter(field: DescField): Parameter {
  const enumDesc = fieldEnum(field);
  const kind = parameterKind(field);
  const message = kind === 'field-mask' ? undefined : nestedMessage(field);
  return {
    ...parameterRules(field),
    kind,
    ...(enumDesc ? { enumDesc } : {}),
    ...(message ? { message, fields: message.fields.map(buildParameter) } : {}),
  };
}

/** A field-mask parameter with the record its paths name. */
function withRecord(op: OperationDescriptor, p: Parameter): Parameter {
  const record = recordOfResponse(op.method.output);
  if (!record) throw new Error(`${op.name} takes ${p.name} but its data root holds no message to select fields of`);
  return { ...p, record };
}

const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PATCH', 'DELETE'];

function httpMethodOf(op: OperationDescriptor): HttpMethod {
  const method = (op.options.httpMethod || 'GET') as HttpMethod;
  if (!HTTP_METHODS.includes(method)) throw new Error(`RPC ${op.name} has http_method "${op.options.httpMethod}"; use ${HTTP_METHODS.join(', ')}`);
  return method;
}

/** The parameters a REST path names (`/watches/{watch_id}/deliveries` → watchId), checked against the request. */
function pathParametersOf(op: OperationDescriptor, parameters: readonly Parameter[]): Parameter[] {
  return [...op.options.restPath.matchAll(/\{([a-z_]+)\}/g)].map(([, fieldName]) => {
    const p = parameters.find((q) => q.field.name === fieldName);
    if (!p || !p.required || p.kind !== 'string') throw new Error(`REST path of ${op.name} names {${fieldName}}, which must be a required string field of its request`);
    return p;
  });
}

function buildOperation(op: OperationDescriptor): Operation {
  const { options, method } = op;
  for (const key of ['restPath', 'operationId', 'mcpTool', 'summary'] as const) {
    if (!options[key]) throw new Error(`RPC ${op.name} lacks the ${key} of its (retail.v1.operation) option`);
  }
  if (options.graphqlFields.length === 0) throw new Error(`RPC ${op.name} lacks graphql_fields`);
  const roots = method.output.fields.filter((f) => f.name !== META_FIELD);
  if (roots.length !== 1 || !roots[0]) throw new Error(`response of ${op.name} must have exactly one data root`);
  // Fields the gateways set themselves (a job's refused items) are no client's parameters.
  const parameters = method.input.fields.filter(isClientParameter).map(buildParameter).map((p) => (p.kind === 'field-mask' ? withRecord(op, p) : p));
  const httpMethod = httpMethodOf(op);
  const level = method.idempotency;
  return {
    ...op,
    restPath: options.restPath,
    operationId: options.operationId,
    mcpTool: options.mcpTool,
    summary: options.summary,
    graphqlFields: [...options.graphqlFields],
    request: method.input,
    response: method.output,
    dataRoot: roots[0].jsonName,
    parameters,
    httpMethod,
    billing: options.billing === Billing.FREE ? 'free' : 'metered',
    pathParameters: pathParametersOf(op, parameters),
    service: method.parent.typeName,
    readOnly: level === IdempotencyLevel.NO_SIDE_EFFECTS,
    idempotent: level === IdempotencyLevel.NO_SIDE_EFFECTS || level === IdempotencyLevel.IDEMPOTENT,
  };
}

/** Builds the registry from operation descriptors; throws when one lacks its options. */
export function buildRegistry(operations: readonly OperationDescriptor[]): readonly Operation[] {
  return operations.map(buildOperation);
}

/** The registry of the 17 lookups (the core's RetailService). */
export const REGISTRY: readonly Operation[] = buildRegistry(OPERATIONS);

/** The watch operations (the watcher's WatchService, unary RPCs). */
export const WATCH_REGISTRY: readonly Operation[] = buildRegistry(WATCH_OPERATIONS);

/** The bulk-job operations (the watcher's JobService, unary RPCs). */
export const JOB_REGISTRY: readonly Operation[] = buildRegistry(JOB_OPERATIONS);

/** Every operation a client can call over REST, GraphQL and MCP: the lookups, the watch operations, the job operations. */
export const API_REGISTRY: readonly Operation[] = [...REGISTRY, ...WATCH_REGISTRY, ...JOB_REGISTRY];

const BY_NAME = new Map(API_REGISTRY.map((op) => [op.name, op]));

/** Looks an operation up by RPC name ("GetProduct"). */
export function registryOperation(name: string): Operation {
  const op = BY_NAME.get(name);
  if (!op) throw new Error(`unknown operation ${name}`);
  return op;
}

/** Finds an operation by any of its client-facing names (RPC, REST path, operationId, MCP tool). */
export function findOperation(name: string): Operation | undefined {
  return BY_NAME.get(name) ?? API_REGISTRY.find((op) => op.restPath === name || op.operationId === name || op.mcpTool === name);
}
