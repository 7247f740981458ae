/**
 * The schema, generated at start-up from the registry and the proto descriptors, nothing typed by
 * hand (docs/contract.md, GraphQL): one root field per data root, parameters as flat arguments placed by
 * `graphql_argument_of`, the per-product operations as fields of `RetailProduct`, one type per
 * response message and per proto enum, the wire JSON's names as field names.
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import { type Operation, type Parameter, scalarKind, typedDefault } from '@retail/gateway-shared';
import type { GraphqlContext } from './context.js';
import { GraphQLBoolean, GraphQLEnumType, GraphQLFloat, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, getNullableType } from './graphql.js';
import type { GraphQLFieldConfigArgumentMap, GraphQLFieldConfigMap, GraphQLOutputType } from './graphql.js';
import { GRAPHQL_OPERATIONS, PRODUCT_ROOT, dataRootField, nestedParameters } from './operation-map.js';
import { resolveRoot, resolveRootField } from './resolvers.js';
import { SafeInt } from './scalars.js';

/** GraphQL names that differ from the proto names (docs/contract.md: `RetailDomain`, `RetailProduct`). */
const RENAMED: Readonly<Record<string, string>> = { 'retail.v1.Domain': 'RetailDomain', 'retail.v1.Product': 'RetailProduct' };

/** GraphQL scalars by the registry's kind of a proto scalar; integers wider than 32 bits (int64 counts, unsigned) go out as SafeInt. */
const KIND_SCALARS = { string: GraphQLString, integer: GraphQLInt, number: GraphQLFloat, boolean: GraphQLBoolean } as const;
const INT32 = new Set([ScalarType.INT32, ScalarType.SINT32, ScalarType.SFIXED32]);
const outputScalar = (scalar: ScalarType) => (scalarKind(scalar) === 'integer' && !INT32.has(scalar) ? SafeInt : KIND_SCALARS[scalarKind(scalar)]);

export function buildRetailSchema(): GraphQLSchema {
  const { product, roots, productFields } = GRAPHQL_OPERATIONS;
  const enums = new Map<string, GraphQLEnumType>();
  const objects = new Map<string, GraphQLObjectType>();
  // Data-root messages (RetailProduct, SearchResults, Seller, …) resolve their fields from the plan.
  const rootMessages = new Map([product, ...roots.values()].map((op) => [dataRootField(op).message?.typeName, op]));
  const productMessage = dataRootField(product).message?.typeName;

  function enumType(desc: DescEnum): GraphQLEnumType {
    // Enum values leave without their proto prefix and UNSPECIFIED is never a client value.
    if (!enums.has(desc.typeName)) {
      const values = Object.fromEntries(desc.values.filter((v) => v.number !== 0).map((v) => [v.localName, { value: v.localName }]));
      enums.set(desc.typeName, new GraphQLEnumType({ name: RENAMED[desc.typeName] ?? desc.name, values }));
    }
    return enums.get(desc.typeName) as GraphQLEnumType;
  }

  /** The output type of a response field: lists are `[T!]!` (always present on the wire). */
  function fieldType(field: DescField): GraphQLOutputType {
    if (field.fieldKind === 'map') throw new Error(`map field ${field.parent.typeName}.${field.name} has no GraphQL type`);
    const item = field.message ? objectType(field.message) : field.enum ? enumType(field.enum) : outputScalar(field.scalar);
    return field.fieldKind === 'list' ? new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item))) : item;
  }

  function argumentsOf(parameters: readonly Parameter[]): GraphQLFieldConfigArgumentMap {
    const args: GraphQLFieldConfigArgumentMap = {};
    for (const p of parameters) {
      if (p.kind === 'object' || p.kind === 'object-list') throw new Error(`GraphQL input objects are not derived yet (${p.name})`);
      const item = p.kind === 'enum' || p.kind === 'enum-list' ? enumType(p.enumDesc as DescEnum) : p.kind === 'string-list' ? GraphQLString : KIND_SCALARS[p.kind];
      const type = p.kind.endsWith('-list') ? new GraphQLList(new GraphQLNonNull(item)) : item;
      const defaultValue = p.kind === 'enum' || p.kind === 'integer' || p.kind === 'number' ? typedDefault(p) : undefined;
      args[p.name] = { type: p.required ? new GraphQLNonNull(type) : type, description: p.description, ...(defaultValue !== undefined ? { defaultValue } : {}), extensions: { parameter: p } };
    }
    return args;
  }

  /** A field of a data-root type, read from the plan; nullable, as a field whose call failed is null. */
  function plannedField(op: Operation, name: string, type: GraphQLOutputType) {
    return { type: getNullableType(type), args: argumentsOf(nestedParameters(op, name)), resolve: resolveRootField };
  }

  function objectFields(desc: DescMessage): GraphQLFieldConfigMap<unknown, unknown> {
    const op = rootMessages.get(desc.typeName);
    const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
    for (const f of desc.fields) fields[f.jsonName] = op ? plannedField(op, f.jsonName, fieldType(f)) : { type: fieldType(f) };
    if (desc.typeName !== productMessage) return fields;
    // RetailProduct also carries the fields the other product operations fill.
    for (const [name, other] of productFields) {
      if (fields[name]) continue;
      const field = dataRootField(other).message?.fields.find((f) => f.jsonName === name);
      if (!field) throw new Error(`${other.name}: its data root has no field ${name}`);
      fields[name] = { ...plannedField(other, name, fieldType(field)), description: other.summary };
    }
    return fields;
  }

  function objectType(desc: DescMessage): GraphQLObjectType {
    if (!objects.has(desc.typeName)) objects.set(desc.typeName, new GraphQLObjectType({ name: RENAMED[desc.typeName] ?? desc.name, fields: () => objectFields(desc) }));
    return objects.get(desc.typeName) as GraphQLObjectType;
  }

  const query: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  for (const [name, op] of [[PRODUCT_ROOT, product] as const, ...roots]) {
    query[name] = {
      // Nullable: an operation that fails leaves its field null beside the others' data.
      type: getNullableType(fieldType(dataRootField(op))),
      description: name === PRODUCT_ROOT ? 'A product, looked up by exactly one of asin, url or gtin; its fields may come from several operations.' : op.summary,
      args: argumentsOf(op.parameters.filter((p) => p.graphqlArgumentOf === undefined)),
      resolve: resolveRoot,
    };
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    description: 'Normalized product data from 13 regional retail marketplaces.',
  });
}
