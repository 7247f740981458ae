/**
 * The GraphQL schema, generated from the registry and the response descriptors: one root query
 * field per data root (CONTRACT.md, GraphQL), the operation's parameters as flat arguments placed
 * by `graphql_argument_of`, and the per-product operations as fields of `RetailProduct`.
 */
import type { DescField, DescMessage } from '@bufbuild/protobuf';
import { type Operation, type Parameter, typedDefault } from '@retail/gateway-shared';
import {
  GraphQLBoolean,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigArgumentMap,
  type GraphQLFieldConfigMap,
  GraphQLFloat,
  type GraphQLInputType,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  getNullableType,
} from './graphql.js';
import { GRAPHQL_OPERATIONS, PRODUCT_ROOT, argumentCarryingFields, dataRootField, nestedParameters, rootParameters } from './operation-map.js';
import type { GraphqlContext } from './context.js';
import { resolveRoot, resolveRootField } from './resolvers.js';
import { type TypeFactory, createTypeFactory } from './types.js';

function argumentType(types: TypeFactory, p: Parameter): GraphQLInputType {
  let type: GraphQLInputType;
  switch (p.kind) {
    case 'integer':
      type = GraphQLInt;
      break;
    case 'number':
      type = GraphQLFloat;
      break;
    case 'boolean':
      type = GraphQLBoolean;
      break;
    case 'enum':
      type = types.enumType(p.enumDesc!);
      break;
    case 'enum-list':
      type = new GraphQLList(new GraphQLNonNull(types.enumType(p.enumDesc!)));
      break;
    case 'string-list':
      type = new GraphQLList(new GraphQLNonNull(GraphQLString));
      break;
    default:
      type = GraphQLString;
  }
  return p.required ? new GraphQLNonNull(type) : type;
}

function argumentsOf(types: TypeFactory, parameters: readonly Parameter[]): GraphQLFieldConfigArgumentMap {
  const args: GraphQLFieldConfigArgumentMap = {};
  for (const p of parameters) {
    const defaultValue = p.kind === 'enum' || p.kind === 'integer' || p.kind === 'number' ? typedDefault(p) : undefined;
    args[p.name] = {
      type: argumentType(types, p),
      description: p.description,
      ...(defaultValue !== undefined ? { defaultValue } : {}),
    };
  }
  return args;
}

/** Builds the schema. Every object type that is an operation's data root resolves through the plan. */
export function buildRetailSchema(): GraphQLSchema {
  const { product, roots, productFields } = GRAPHQL_OPERATIONS;
  // Data-root messages (RetailProduct, SearchResults, Seller, …) resolve their fields from the plan.
  const rootMessages = new Map<string, Operation>();
  for (const op of [product, ...roots.values()]) {
    const message = dataRootField(op).message;
    if (message) rootMessages.set(message.typeName, op);
  }

  const types: TypeFactory = createTypeFactory({
    field(message: DescMessage, field: DescField, base: GraphQLFieldConfig<unknown, unknown>) {
      const op = rootMessages.get(message.typeName);
      if (!op) return base;
      const nested = argumentCarryingFields(op).has(field.jsonName) ? nestedParameters(op, field.jsonName) : [];
      // Nullable: a field whose call failed is null (one error per failed call, not per field).
      return { ...base, type: getNullableType(base.type), args: argumentsOf(types, nested), resolve: resolveRootField };
    },
    extraFields(message: DescMessage) {
      if (message.typeName !== dataRootField(product).message?.typeName) return {};
      // RetailProduct also carries the fields the other product operations fill.
      const extra: GraphQLFieldConfigMap<unknown, unknown> = {};
      for (const [name, op] of productFields) {
        if (message.fields.some((f) => f.jsonName === name)) continue;
        const field = dataRootField(op).message?.fields.find((f) => f.jsonName === name);
        if (!field) throw new Error(`${op.name}: its data root has no field ${name}`);
        extra[name] = {
          type: getNullableType(types.fieldType(field)),
          description: op.summary,
          args: argumentsOf(types, nestedParameters(op, name)),
          resolve: resolveRootField,
        };
      }
      return extra;
    },
  });

  const query: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  for (const [name, op] of [[PRODUCT_ROOT, product] as const, ...roots]) {
    const rootField = dataRootField(op);
    query[name] = {
      // Nullable: an operation that fails leaves its field null beside the others' data.
      type: getNullableType(types.fieldType(rootField)),
      description: name === PRODUCT_ROOT ? 'A product, looked up by exactly one of asin, url or gtin; its fields may come from several operations.' : op.summary,
      args: argumentsOf(types, rootParameters(op)),
      resolve: resolveRoot,
    };
  }
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: query }),
    description: 'Normalized product data from 13 regional retail marketplaces.',
  });
}
