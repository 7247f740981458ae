/**
 * GraphQL types generated from the proto descriptors: one object type per response message, one
 * enum per proto enum, the wire JSON's field names (JSON names) as GraphQL field names, so the
 * wire renderer's output resolves with the default resolver. Nothing here is typed by hand.
 */
import { type DescEnum, type DescField, type DescMessage, ScalarType } from '@bufbuild/protobuf';
import {
  GraphQLBoolean,
  GraphQLEnumType,
  GraphQLFloat,
  type GraphQLFieldConfig,
  type GraphQLFieldConfigMap,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLScalarType,
  GraphQLString,
} from './graphql.js';
import { SafeInt } from './scalars.js';

/** GraphQL names that differ from the proto names (CONTRACT.md: `RetailDomain`, `RetailProduct`). */
const RENAMED: Readonly<Record<string, string>> = {
  'retail.v1.Domain': 'RetailDomain',
  'retail.v1.Product': 'RetailProduct',
};

export function graphqlTypeName(desc: DescMessage | DescEnum): string {
  return RENAMED[desc.typeName] ?? desc.name;
}

/** int64 counts go out as SafeInt; 32-bit integers as Int. */
export function scalarType(scalar: ScalarType): GraphQLScalarType {
  switch (scalar) {
    case ScalarType.BOOL:
      return GraphQLBoolean;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return GraphQLFloat;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return GraphQLInt;
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return SafeInt;
    default:
      return GraphQLString;
  }
}

/** Customises the generated field of a message (arguments, resolver) or adds fields to a type. */
export interface TypeHooks {
  field?(message: DescMessage, field: DescField, base: GraphQLFieldConfig<unknown, unknown>): GraphQLFieldConfig<unknown, unknown>;
  extraFields?(message: DescMessage): GraphQLFieldConfigMap<unknown, unknown>;
}

export interface TypeFactory {
  enumType(desc: DescEnum): GraphQLEnumType;
  objectType(desc: DescMessage): GraphQLObjectType;
  /** The output type of a response field: lists are `[T!]!` (always present on the wire). */
  fieldType(field: DescField): GraphQLOutputType;
}

export function createTypeFactory(hooks: TypeHooks = {}): TypeFactory {
  const enums = new Map<string, GraphQLEnumType>();
  const objects = new Map<string, GraphQLObjectType>();

  function enumType(desc: DescEnum): GraphQLEnumType {
    let type = enums.get(desc.typeName);
    if (!type) {
      const values: Record<string, { value: string }> = {};
      // Enum values leave without their proto prefix and UNSPECIFIED is never a client value.
      for (const v of desc.values) if (v.number !== 0) values[v.localName] = { value: v.localName };
      type = new GraphQLEnumType({ name: graphqlTypeName(desc), values });
      enums.set(desc.typeName, type);
    }
    return type;
  }

  function itemType(field: DescField): GraphQLOutputType {
    switch (field.fieldKind) {
      case 'scalar':
        return scalarType(field.scalar);
      case 'enum':
        return enumType(field.enum);
      case 'message':
        return objectType(field.message);
      case 'list':
        if (field.listKind === 'message') return objectType(field.message);
        if (field.listKind === 'enum') return enumType(field.enum);
        return scalarType(field.scalar);
      case 'map':
        throw new Error(`map field ${field.parent.typeName}.${field.name} has no GraphQL type`);
    }
  }

  function fieldType(field: DescField): GraphQLOutputType {
    const item = itemType(field);
    return field.fieldKind === 'list' ? new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(item))) : item;
  }

  function objectType(desc: DescMessage): GraphQLObjectType {
    let type = objects.get(desc.typeName);
    if (!type) {
      type = new GraphQLObjectType({
        name: graphqlTypeName(desc),
        fields: () => {
          const fields: GraphQLFieldConfigMap<unknown, unknown> = {};
          for (const field of desc.fields) {
            const base: GraphQLFieldConfig<unknown, unknown> = { type: fieldType(field) };
            fields[field.jsonName] = hooks.field ? hooks.field(desc, field, base) : base;
          }
          return { ...fields, ...(hooks.extraFields?.(desc) ?? {}) };
        },
      });
      objects.set(desc.typeName, type);
    }
    return type;
  }

  return { enumType, objectType, fieldType };
}
