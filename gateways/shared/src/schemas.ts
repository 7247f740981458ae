/**
 * JSON Schemas (draft 2020-12, as OpenAPI 3.1 and MCP use) derived from the registry: the
 * parameters of an operation (the MCP inputSchema, the OpenAPI parameters) and its 200 body
 * (`{ data: ... }`) following the wire rules of docs/contract.md and the renderer in @retail/contract.
 * Parameter schemas publish the rules as @retail/contract reads them from the proto (the same
 * reading the shape checks and the core enforce). Exactly-one-of groups are said in the members'
 * descriptions, not as a top-level `oneOf`: several tool-calling clients refuse one in a tool's
 * input schema.
 */
import { type DescField, type DescMessage, getOption } from '@bufbuild/protobuf';
import { FeatureSet_FieldPresence as FieldPresence } from '@bufbuild/protobuf/wkt';
import { BatchItemResultSchema, isBulky, wire } from '@retail/contract';
import { BATCH_REGISTRY } from './batch-registry.js';
import { typedDefault } from './parameters.js';
import { type Operation, type Parameter, scalarKind, wireEnumValues } from './registry.js';

export type JsonSchema = { [key: string]: unknown };

const TIMESTAMP = 'google.protobuf.Timestamp';

/** Largest count a 53-bit-safe client can hold exactly (docs/contract.md, Wire JSON: ratingsTotal). */
export const MAX_COUNT = 4503599627370495;

/**
 * Refinements of single response fields that the descriptor cannot say, keyed by
 * `<message type>.<field>` or `*.<field>` for every message.
 */
const FIELD_REFINEMENTS: Record<string, JsonSchema> = {
  '*.ratings_total': { maximum: MAX_COUNT },
  'retail.v1.IdentifierPair.asin': { pattern: '^[A-Z0-9]{10}$' },
};

/** Schema of one value of a parameter (a list item for lists). */
function parameterItemSchema(p: Parameter): JsonSchema {
  if (p.enumValues) return { type: 'string', enum: [...p.enumValues] };
  if (p.kind === 'object' || p.kind === 'object-list') return objectSchema(p.fields ?? []);
  const kind = p.kind === 'string-list' || p.kind === 'field-mask' ? 'string' : p.kind;
  const schema: JsonSchema = { type: kind };
  if (kind === 'string') {
    if (p.pattern) schema.pattern = p.pattern;
    if (p.minLength !== undefined) schema.minLength = p.minLength;
    if (p.maxLength !== undefined) schema.maxLength = p.maxLength;
  } else {
    if (p.minimum !== undefined) schema.minimum = p.minimum;
    if (p.maximum !== undefined) schema.maximum = p.maximum;
  }
  return schema;
}

/** Schema of a parameter's value as JSON (arrays for lists). */
export function parameterSchema(p: Parameter): JsonSchema {
  const item = parameterItemSchema(p);
  const schema: JsonSchema = p.kind.endsWith('-list') ? { type: 'array', items: item } : item;
  const fallback = typedDefault(p);
  if (fallback !== undefined) schema.default = fallback;
  if (p.description) schema.description = p.description;
  return schema;
}

/** Parameters as one object schema: a request's (the MCP inputSchema, a REST body) or a nested message's. */
export function objectSchema(parameters: readonly Parameter[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const p of parameters) properties[p.name] = parameterSchema(p);
  const required = parameters.filter((p) => p.required).map((p) => p.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** The operation's parameters as one object schema: the MCP tool inputSchema. */
export function parametersJsonSchema(op: Operation): JsonSchema {
  return objectSchema(op.parameters);
}

export interface SchemaOptions {
  /** Prefix of references to message schemas; `#/$defs/` (default) or `#/components/schemas/`. */
  readonly refBase?: string;
  /**
   * MCP's compact records: no bulky fields, and no field always present (empty values are left out,
   * so neither `required` nor `null` appear).
   */
  readonly compact?: boolean;
}

/**
 * Collects one schema per message type, so recursive messages (the category tree) work. `compact`:
 * the records of compactData (@retail/contract), without their bulky fields.
 */
export class MessageSchemas {
  readonly defs: Record<string, JsonSchema> = {};
  constructor(private readonly refBase = '#/$defs/', private readonly compact = false) {}

  static defName(desc: DescMessage): string {
    if (desc.typeName === BatchItemResultSchema.typeName) return BATCH_ENTRY_DEF;
    return desc.typeName.replace(/^retail\.v1\./, '').replace(/\./g, '_');
  }

  ref(desc: DescMessage): JsonSchema {
    const name = MessageSchemas.defName(desc);
    if (!(name in this.defs)) {
      this.defs[name] = {}; // placeholder first: a recursive field refers back to it
      // A job's result renders as the batch entry (response-data.ts), so it is described as one.
      this.defs[name] = desc.typeName === BatchItemResultSchema.typeName ? batchEntrySchema(this) : this.messageSchema(desc);
    }
    return { $ref: `${this.refBase}${name}` };
  }

  private messageSchema(desc: DescMessage): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of desc.fields) {
      if (this.compact && isBulky(field)) continue;
      const { schema, alwaysPresent } = this.fieldSchema(field);
      properties[field.jsonName] = this.compact ? withoutNull(schema) : schema;
      if (alwaysPresent && !this.compact) required.push(field.jsonName);
    }
    return {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      additionalProperties: false,
    };
  }

  /** Schema of one field and whether the renderer always writes it. */
  fieldSchema(field: DescField): { schema: JsonSchema; alwaysPresent: boolean } {
    const nullable = getOption(field, wire).nullable;
    const refinement = {
      ...FIELD_REFINEMENTS[`*.${field.name}`],
      ...FIELD_REFINEMENTS[`${field.parent.typeName}.${field.name}`],
    };
    switch (field.fieldKind) {
      case 'list': {
        const item =
          field.listKind === 'message'
            ? this.ref(field.message)
            : field.listKind === 'enum'
              ? { type: 'string', enum: wireEnumValues(field.enum) }
              : { type: scalarKind(field.scalar), ...refinement };
        return { schema: { type: 'array', items: item }, alwaysPresent: true };
      }
      case 'map': {
        const value = field.mapKind === 'message' ? this.ref(field.message) : field.mapKind === 'enum' ? { type: 'string' } : { type: scalarKind(field.scalar) };
        return { schema: { type: 'object', additionalProperties: value }, alwaysPresent: true };
      }
      case 'message': {
        // Timestamps are RFC 3339 strings on the wire (@retail/contract renderMessage).
        const ref = field.message.typeName === TIMESTAMP ? { type: 'string', format: 'date-time' } : this.ref(field.message);
        return nullable ? { schema: { anyOf: [ref, { type: 'null' }] }, alwaysPresent: true } : { schema: ref, alwaysPresent: false };
      }
      case 'enum':
      case 'scalar': {
        const base: JsonSchema =
          field.fieldKind === 'enum' ? { type: 'string', enum: wireEnumValues(field.enum) } : { type: scalarKind(field.scalar), ...refinement };
        const implicit = field.presence === FieldPresence.IMPLICIT;
        if (!nullable) return { schema: base, alwaysPresent: implicit };
        const schema: JsonSchema = { ...base, type: [base.type, 'null'] };
        if (Array.isArray(schema.enum)) schema.enum = [...(schema.enum as unknown[]), null];
        return { schema, alwaysPresent: true };
      }
    }
  }
}

/** A field's schema without its `null` (compact records leave empty values out). */
function withoutNull(schema: JsonSchema): JsonSchema {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as JsonSchema[]).find((s) => s.type !== 'null') ?? schema;
  if (!Array.isArray(schema.type)) return schema;
  const out: JsonSchema = { ...schema, type: (schema.type as unknown[]).find((t) => t !== 'null') };
  if (Array.isArray(out.enum)) out.enum = (out.enum as unknown[]).filter((v) => v !== null);
  return out;
}

/** The schema name of a batch entry (`{index, status, data}` / `{index, status, errors}`), a job's result included. */
export const BATCH_ENTRY_DEF = 'RetailBatchEntry';

const errorEntries = () => (ERROR_ENVELOPE_SCHEMA.properties as Record<string, JsonSchema>).errors as JsonSchema;
const INDEX = { type: 'integer', minimum: 0 };

/** One item's answer, message schemas collected in `schemas` (compact ones for the MCP tool). */
export function batchEntrySchema(schemas: MessageSchemas): JsonSchema {
  // anyOf, not oneOf: two operations may answer the same record (IdentifierPair).
  const data = { anyOf: BATCH_REGISTRY.items.map((item) => dataSchema(item.op, schemas)) };
  return {
    oneOf: [
      { type: 'object', properties: { index: INDEX, status: { const: 200 }, data }, required: ['index', 'status', 'data'], additionalProperties: false },
      { type: 'object', properties: { index: INDEX, status: { type: 'integer', minimum: 400, maximum: 599 }, errors: errorEntries() }, required: ['index', 'status', 'errors'], additionalProperties: false },
    ],
  };
}

/** Schema of the `data` object of an operation's response, references resolved by `schemas`. */
export function dataSchema(op: Operation, schemas: MessageSchemas): JsonSchema {
  const root = op.response.fields.find((f) => f.jsonName === op.dataRoot);
  if (!root) throw new Error(`no data root on ${op.name}`);
  const field = schemas.fieldSchema(root);
  return {
    type: 'object',
    properties: { [op.dataRoot]: field.schema },
    required: [op.dataRoot],
    additionalProperties: false,
  };
}

/** The REST 200 body `{ data: {...} }` (also the MCP outputSchema), self-contained with `$defs`. */
export function responseJsonSchema(op: Operation, options: SchemaOptions = {}): JsonSchema {
  const schemas = new MessageSchemas(options.refBase, options.compact);
  const data = dataSchema(op, schemas);
  const body: JsonSchema = {
    type: 'object',
    properties: { data },
    required: ['data'],
    additionalProperties: false,
  };
  if (!options.refBase || options.refBase === '#/$defs/') body.$defs = schemas.defs;
  return body;
}

/** The error envelope every interface returns (docs/contract.md, Errors). */
export const ERROR_ENVELOPE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    success: { const: false },
    errors: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        properties: {
          code: { type: 'integer', minimum: 400, maximum: 599 },
          message: { type: 'string' },
          path: { type: 'array', items: { type: 'string' } },
        },
        required: ['code', 'message'],
      },
    },
  },
  required: ['success', 'errors'],
};
