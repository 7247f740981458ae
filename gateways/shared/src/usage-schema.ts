/**
 * The usage history as the interfaces describe it: its parameters (name, description, JSON schema)
 * and its rows' schema, declared once for the OpenAPI operation, the GraphQL field's arguments and
 * type, and the MCP tool's input and output schemas. The checks themselves are the metering
 * library's (usage-query.ts), so what the descriptions promise is what every interface enforces.
 */
import { DEFAULT_USAGE_DAYS, USAGE_GRANULARITIES, USAGE_GROUPS } from '@retail/metering/usage-query';
import type { JsonSchema } from './schemas.js';

/** Names of what the interfaces answer under: REST's `data` root, GraphQL's field, MCP's tool. */
export const USAGE_ROOT = 'retailUsage';
export const USAGE_TOOL = 'retail_account_usage';

export interface UsageParameter {
  readonly name: 'from' | 'to' | 'granularity' | 'groupBy';
  readonly description: string;
  /** One value's schema (groupBy: one group; REST also takes a comma list, GraphQL and MCP a list). */
  readonly schema: JsonSchema;
}

const TIME_DESCRIPTION = 'a date (2026-01-31, UTC) or an RFC 3339 timestamp (2026-01-31T12:00:00Z)';

export const USAGE_PARAMETERS: readonly UsageParameter[] = [
  {
    name: 'from',
    description: `Start of the range, inclusive: ${TIME_DESCRIPTION}. Default: the start of the UTC day ${DEFAULT_USAGE_DAYS - 1} days before \`to\`'s (${DEFAULT_USAGE_DAYS} days).`,
    schema: { type: 'string', examples: ['2026-01-01'] },
  },
  {
    name: 'to',
    description: `End of the range, exclusive: ${TIME_DESCRIPTION}; a date includes that whole day. Default: now. At most 400 days after \`from\` by day, 31 days by hour.`,
    schema: { type: 'string', examples: ['2026-01-31'] },
  },
  {
    name: 'granularity',
    description: 'Rows per UTC day or per UTC hour. Default: day.',
    schema: { type: 'string', enum: [...USAGE_GRANULARITIES], default: 'day', examples: ['day'] },
  },
  {
    name: 'groupBy',
    description: `Columns to split the rows by, any of ${USAGE_GROUPS.join(', ')}; only the grouped columns are in a row. Default: none (one row per period).`,
    schema: { type: 'string', enum: [...USAGE_GROUPS] },
  },
];

/** One row: the period always, the grouped columns, the counts. */
export const USAGE_ROW_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    period: { type: 'string', format: 'date-time', description: 'Start of the UTC day or hour.' },
    keyId: { type: 'string', description: 'The key that made the calls (grouped by key); empty for background work (watch refreshes, job items).' },
    operation: { type: 'string', description: 'The RPC name, e.g. GetProduct (grouped by operation).' },
    interface: { type: 'string', description: 'Where the calls came from: rest, graphql, mcp, watcher or jobs (grouped by interface).' },
    calls: { type: 'integer', description: 'Charged calls (per operation: each operation of a GraphQL request counts).' },
    units: { type: 'integer', description: 'Units charged for them.' },
  },
  required: ['period', 'calls', 'units'],
  additionalProperties: false,
};

/** `{ rows }`: what REST answers under `data.retailUsage`, MCP as structured content, GraphQL as the field. */
export const USAGE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { rows: { type: 'array', items: USAGE_ROW_SCHEMA, description: 'Periods with charged calls, oldest first; periods without any have no row.' } },
  required: ['rows'],
};
