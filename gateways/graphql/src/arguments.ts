/**
 * Arguments from the registry's parameters. Scalars, enums and lists are flat arguments; a nested
 * message parameter (a watch's `conditions`, its `webhook`) is an input object type derived from
 * that message's own parameters (`WatchCondition` → `WatchConditionInput`), nothing hand-written.
 * Every argument and input field carries its parameter in `extensions`, so a refused variable reads
 * as the rule table says (variable-errors.ts), at any depth.
 */
import type { DescEnum, DescMessage } from '@bufbuild/protobuf';
import { JOB_ITEM_FORM, type Parameter, isJobItemsParameter, typedDefault } from '@retail/gateway-shared';
import { GraphQLBoolean, GraphQLFloat, GraphQLInputObjectType, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLString } from './graphql.js';
import type { GraphQLArgumentConfig, GraphQLEnumType, GraphQLFieldConfigArgumentMap, GraphQLInputFieldConfigMap, GraphQLInputType } from './graphql.js';
import { JsonValue } from './scalars.js';

/** GraphQL scalars by the registry's kind of a proto scalar. */
export const KIND_SCALARS = { string: GraphQLString, integer: GraphQLInt, number: GraphQLFloat, boolean: GraphQLBoolean } as const;

export interface ArgumentDerivation {
  /** The arguments of a field that takes `parameters`, by parameter name. */
  argumentsOf(parameters: readonly Parameter[]): GraphQLFieldConfigArgumentMap;
}

/** `enumType` and `typeName` are the schema's own, so an enum is one type whether read or written. */
export function createArgumentDerivation(enumType: (desc: DescEnum) => GraphQLEnumType, typeName: (desc: DescMessage) => string): ArgumentDerivation {
  const inputs = new Map<string, GraphQLInputObjectType>();

  function inputObject(message: DescMessage, fields: readonly Parameter[]): GraphQLInputObjectType {
    let type = inputs.get(message.typeName);
    if (!type) {
      const config = (): GraphQLInputFieldConfigMap => Object.fromEntries(fields.map((f) => [f.name, configOf(f)]));
      type = new GraphQLInputObjectType({ name: `${typeName(message)}Input`, description: `A ${message.name} as a request writes it.`, fields: config });
      inputs.set(message.typeName, type);
    }
    return type;
  }

  /**
   * A job's item in the item form of every interface (gateway-shared job-arguments.ts): the
   * operation's name and its params as one JSON value, read by the batch's item translation, so a
   * wrong operation name or a malformed params is that item's 400 result, not the document's.
   */
  let jobItem: GraphQLInputObjectType | undefined;
  function jobItemInput(): GraphQLInputObjectType {
    jobItem ??= new GraphQLInputObjectType({
      name: 'RetailJobItemInput',
      description: 'One lookup of a job, as a batch item and a REST job body write it.',
      fields: {
        operation: { type: new GraphQLNonNull(GraphQLString), description: 'The lookup: its REST path after /api/retail/ (product, product/offers, product/reviews, …).' },
        params: { type: JsonValue, description: 'That lookup\'s arguments as a JSON object, e.g. {"asin": "B0CX23V2ZK", "domain": "US"}.' },
      },
    });
    return jobItem;
  }

  function itemType(p: Parameter): GraphQLInputType {
    switch (p.kind) {
      case 'object':
      case 'object-list':
        if (!p.message || !p.fields) throw new Error(`object parameter ${p.name} has no message`);
        return inputObject(p.message, p.fields);
      case 'enum':
      case 'enum-list':
        return enumType(p.enumDesc as DescEnum);
      case 'string-list':
      case 'field-mask':
        return GraphQLString;
      default:
        return KIND_SCALARS[p.kind];
    }
  }

  /** One argument or input field (GraphQL configures both alike). */
  function configOf(p: Parameter): GraphQLArgumentConfig {
    // No `parameter` extension: the registry's item (the proto form) is not what a variable carries here.
    if (isJobItemsParameter(p)) return { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(jobItemInput()))), description: JOB_ITEM_FORM };
    const item = itemType(p);
    const type = p.kind.endsWith('-list') ? new GraphQLList(new GraphQLNonNull(item)) : item;
    const defaultValue = p.kind === 'enum' || p.kind === 'integer' || p.kind === 'number' ? typedDefault(p) : undefined;
    return { type: p.required ? new GraphQLNonNull(type) : type, description: p.description, ...(defaultValue !== undefined ? { defaultValue } : {}), extensions: { parameter: p } };
  }

  return {
    // `fields` (a field mask) is no argument: a GraphQL query's selection set already selects.
    argumentsOf: (parameters) => Object.fromEntries(parameters.filter((p) => p.kind !== 'field-mask').map((p) => [p.name, configOf(p)])),
  };
}
