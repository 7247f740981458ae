/**
 * The operation registry: the 17 operations of RetailService with their client-facing names and
 * parameters, derived from the proto descriptors and their custom options. REST routes, OpenAPI,
 * the GraphQL schema and the MCP tool list are all generated from this list; nothing about an
 * operation is typed twice.
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import { OPERATIONS, type OperationDescriptor, META_FIELD, type ParameterRules, fieldEnum, parameterRules, wireEnumValues } from '@retail/contract';

export { wireEnumValues };

/** How a parameter is written by a client. */
export type ParameterKind = 'string' | 'integer' | 'number' | 'boolean' | 'enum' | 'string-list' | 'enum-list';

/** A parameter as the gateways handle it: its declared rules (read once, in @retail/contract) and how a client writes it. */
export interface Parameter extends ParameterRules {
  readonly kind: ParameterKind;
  /** The enum itself, to turn names back into numbers. */
  readonly enumDesc?: DescEnum;
}

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
    case 'list':
      if (field.listKind === 'enum') return 'enum-list';
      if (field.listKind === 'scalar' && scalarKind(field.scalar) === 'string') return 'string-list';
      break;
    default:
      break;
  }
  throw new Error(`request field ${field.parent.typeName}.${field.name} has a kind no interface can carry`);
}

function buildParameter(field: DescField): Parameter {
  const enumDesc = fieldEnum(field);
  return { ...parameterRules(field), kind: parameterKind(field), ...(enumDesc ? { enumDesc } : {}) };
}

function buildOperation(op: OperationDescriptor): Operation {
  const { options, method } = op;
  for (const key of ['restPath', 'operationId', 'mcpTool', 'summary'] as const) {
    if (!options[key]) throw new Error(`RPC ${op.name} lacks the ${key} of its (retail.v1.operation) option`);
  }
  if (options.graphqlFields.length === 0) throw new Error(`RPC ${op.name} lacks graphql_fields`);
  const roots = method.output.fields.filter((f) => f.name !== META_FIELD);
  if (roots.length !== 1 || !roots[0]) throw new Error(`response of ${op.name} must have exactly one data root`);
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
    parameters: method.input.fields.map(buildParameter),
  };
}

/** Builds the registry from operation descriptors; throws when one lacks its options. */
export function buildRegistry(operations: readonly OperationDescriptor[]): readonly Operation[] {
  return operations.map(buildOperation);
}

/** The registry of the 17 operations. */
export const REGISTRY: readonly Operation[] = buildRegistry(OPERATIONS);

const BY_NAME = new Map(REGISTRY.map((op) => [op.name, op]));

/** Looks an operation up by RPC name ("GetProduct"). */
export function registryOperation(name: string): Operation {
  const op = BY_NAME.get(name);
  if (!op) throw new Error(`unknown operation ${name}`);
  return op;
}

/** Finds an operation by any of its client-facing names (RPC, REST path, operationId, MCP tool). */
export function findOperation(name: string): Operation | undefined {
  return BY_NAME.get(name) ?? REGISTRY.find((op) => op.restPath === name || op.operationId === name || op.mcpTool === name);
}
