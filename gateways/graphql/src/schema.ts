/**
 * The schema, generated at start-up from the registry and the proto descriptors, nothing typed by
 * hand (docs/contract.md, GraphQL): one root field per data root (a Query field for a GET
 * operation, a Mutation field for the others), parameters as arguments placed by
 * `graphql_argument_of` (arguments.ts), the per-product operations as fields of `RetailProduct`,
 * one type per response message and per proto enum, the wire JSON's names as field names, and a
 * google.protobuf.Timestamp as the `DateTime` string the wire carries.
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import { BatchItemResultSchema } from '@retail/contract';
import { BATCH_ENTRY_DEF, BATCH_REGISTRY, type Operation, USAGE_ROOT, scalarKind } from '@retail/gateway-shared';
import { KIND_SCALARS, createArgumentDerivation } from './arguments.js';
import type { GraphqlContext } from './context.js';
import { GraphQLEnumType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, getNullableType } from './graphql.js';
import type { GraphQLFieldConfig, GraphQLFieldConfigMap, GraphQLOutputType } from './graphql.js';
import { BATCH_FIELD, BATCH_LIST_PARAMETER, GRAPHQL_OPERATIONS, PRODUCT_ROOT, dataRootField, nestedParameters } from './operation-map.js';
import { resolveRoot, resolveRootField } from './resolvers.js';
import { DateTime, SafeInt } from './scalars.js';
import { usageField } from './usage-field.js';

/** GraphQL names that differ from the proto names (docs/contract.md: `RetailDomain`, `RetailProduct`). */
const RENAMED: Readonly<Record<string, string>> = { 'retail.v1.Domain': 'RetailDomain', 'retail.v1.Product': 'RetailProduct' };
const typeName = (desc: DescEnum | DescMessage): string => RENAMED[desc.typeName] ?? desc.name;

/** Integers wider than 32 bits (int64 counts, unsigned) go out as SafeInt. */
const INT32 = new Set([ScalarType.INT32, ScalarType.SINT32, ScalarType.SFIXED32]);
const outputScalar = (scalar: ScalarType) => (scalarKind(scalar) === 'integer' && !INT32.has(scalar) ? SafeInt : KIND_SCALARS[scalarKind(scalar)]);
/** Timestamps leave as RFC 3339 strings (@retail/contract renderData), so they are DateTime, not {seconds, nanos}. */
const TIMESTAMP = 'google.protobuf.Timestamp';

export function buildRetailSchema(): GraphQLSchema {
  const { product, roots, mutations, productFields } = GRAPHQL_OPERATIONS;
  const enums = new Map<string, GraphQLEnumType>();
  const objects = new Map<string, GraphQLObjectType>();
  // Data-root messages (RetailProduct, SearchResults, Seller, …) resolve their fields from the plan.
  const rootMessages = new Map([product, ...roots.values(), ...mutations.values()].map((op) => [dataRootField(op).message?.typeName, op]));
  const productMessage = dataRootField(product).message?.typeName;

  function enumType(desc: DescEnum): GraphQLEnumType {
    // Enum values leave without their proto prefix and UNSPECIFIED is never a client value.
    if (!enums.has(desc.typeName)) {
      const values = Object.fromEntries(desc.values.filter((v) => v.number !== 0).map((v) => [v.localName, { value: v.localName }]));
      enums.set(desc.typeName, new GraphQLEnumType({ name: typeName(desc), values }));
    }
    return enums.get(desc.typeName) as GraphQLEnumType;
  }

  /** The output type of a response field: lists are `[T!]!` (always present on the wire). */
  function fieldType(field: DescField): GraphQLOutputType {
    if (field.fieldKind === 'map') throw new Error(`map field ${field.parent.typeName}.${field.name} has no GraphQL type`);
    const item = field.message ? (field.message.typeName === TIMESTAMP ? DateTime : objectType(field.message)) : field.enum ? enumType(field.enum) : outputScalar(field.scalar);
    return field.fieldKind === 'list' ? new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item))) : item;
  }

  const { argumentsOf } = createArgumentDerivation(enumType, typeName);

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
    if (desc.typeName === BatchItemResultSchema.typeName) return batchEntryType();
    if (!objects.has(desc.typeName)) objects.set(desc.typeName, new GraphQLObjectType({ name: typeName(desc), fields: () => objectFields(desc) }));
    return objects.get(desc.typeName) as GraphQLObjectType;
  }

  /**
   * A bulk job's result renders as the batch entry on every interface (gateway-shared
   * response-data.ts): `{index, status, data: {retailProduct}, errors}`. Every item operation's record
   * is a part of RetailProduct (their graphql_fields say which), so `data.retailProduct` is one.
   */
  let entry: GraphQLObjectType | undefined;
  function batchEntryType(): GraphQLObjectType {
    const nonNull = <T extends GraphQLOutputType>(type: T) => new GraphQLNonNull(type);
    entry ??= new GraphQLObjectType({
      name: BATCH_ENTRY_DEF,
      description: 'One item\'s outcome: status 200 with its data, or its error status with the envelope\'s errors.',
      fields: () => ({
        index: { type: nonNull(GraphQLInt), description: 'The item\'s position in the job, from 0.' },
        status: { type: nonNull(GraphQLInt), description: 'HTTP status of the item: 200, or its error\'s.' },
        data: {
          type: new GraphQLObjectType({ name: `${BATCH_ENTRY_DEF}Data`, fields: () => ({ [PRODUCT_ROOT]: { type: getNullableType(fieldType(dataRootField(product))) } }) }),
          description: 'The data the single call answers; null when the item failed.',
        },
        errors: {
          type: new GraphQLList(nonNull(new GraphQLObjectType({
            name: `${BATCH_ENTRY_DEF}Error`,
            fields: { code: { type: nonNull(GraphQLInt) }, message: { type: nonNull(GraphQLString) }, path: { type: new GraphQLList(nonNull(GraphQLString)) } },
          }))),
          description: 'The item\'s errors as the REST envelope has them; null when it succeeded.',
        },
      }),
    });
    return entry;
  }

  /** A root field: nullable, as an operation that fails leaves its field null beside the others' data. */
  const rootField = (op: Operation, description: string): GraphQLFieldConfig<unknown, GraphqlContext> => ({
    type: getNullableType(fieldType(dataRootField(op))),
    description,
    args: argumentsOf(op.parameters.filter((p) => p.graphqlArgumentOf === undefined)),
    resolve: resolveRoot,
  });
  const query: GraphQLFieldConfigMap<unknown, GraphqlContext> = {
    [PRODUCT_ROOT]: rootField(product, 'A product, looked up by exactly one of asin, url or gtin; its fields may come from several operations.'),
  };
  query[BATCH_FIELD] = {
    type: new GraphQLList(getNullableType(fieldType(dataRootField(product)))),
    description: `${BATCH_REGISTRY.summary} One product per asins entry, in order; an entry that fails is null with its error at its index.`,
    args: argumentsOf([BATCH_LIST_PARAMETER, ...product.parameters.filter((p) => !p.oneOfGroup && p.graphqlArgumentOf === undefined)]),
    resolve: resolveRoot,
  };
  for (const [name, op] of roots) query[name] = rootField(op, op.summary);
  // The account's usage history: free, no core call, so not an operation of the registry.
  query[USAGE_ROOT] = usageField();
  const mutation: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  for (const [name, op] of mutations) mutation[name] = rootField(op, op.summary);
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    ...(mutations.size > 0 ? { mutation: new GraphQLObjectType({ name: 'Mutation', fields: mutation, description: 'Operations that change something; run one after another, in document order.' }) } : {}),
    description: 'Normalized product data from 13 regional retail marketplaces, and watches over it.',
  });
}
