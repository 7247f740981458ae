/**
 * `retailUsage(from, to, granularity, groupBy)`: the calling key's account's usage history, the
 * field `GET /api/account/usage` answers as `data.retailUsage`. Free of units: it plans no core call,
 * so a request of this field alone holds nothing, but admission (admission.ts) takes the request's
 * rate-limit token as for lookups, before the arguments' 400s here; it reads only the account
 * admission admitted (Meter.accountUsage). Arguments and descriptions come from the
 * shared declaration (gateway-shared usage-schema.ts), the checks from the metering library.
 */
import { USAGE_PARAMETERS, USAGE_ROW_SCHEMA, type UsageParameter } from '@retail/gateway-shared';
import { parseUsageQuery, USAGE_GRANULARITIES, USAGE_GROUPS } from '@retail/metering/usage-query';
import type { GraphqlContext } from './context.js';
import { GraphQLEnumType, GraphQLError, type GraphQLFieldConfig, GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLInputType } from './graphql.js';
import { DateTime } from './scalars.js';

const describe = (name: UsageParameter['name']) => USAGE_PARAMETERS.find((p) => p.name === name)?.description;
const column = (name: string) => (USAGE_ROW_SCHEMA.properties as Record<string, { description?: string }>)[name]?.description;
const enumOf = (name: string, values: readonly string[], description: string) =>
  new GraphQLEnumType({ name, description, values: Object.fromEntries(values.map((v) => [v, { value: v }])) });

const granularity = enumOf('RetailUsageGranularity', USAGE_GRANULARITIES, 'Rows per UTC day or per UTC hour.');
const group = enumOf('RetailUsageGroup', USAGE_GROUPS, 'A column to split the usage rows by.');

const row = new GraphQLObjectType({
  name: 'RetailUsageRow',
  description: 'Calls and units of one period (and, when grouped, one key, operation or interface).',
  fields: {
    period: { type: new GraphQLNonNull(DateTime), description: column('period') },
    keyId: { type: GraphQLString, description: `${column('keyId')} Null unless grouped by key.` },
    operation: { type: GraphQLString, description: `${column('operation')} Null unless grouped by operation.` },
    interface: { type: GraphQLString, description: `${column('interface')} Null unless grouped by interface.` },
    calls: { type: new GraphQLNonNull(GraphQLInt), description: column('calls') },
    units: { type: new GraphQLNonNull(GraphQLInt), description: column('units') },
  },
});

const usage = new GraphQLObjectType({
  name: 'RetailUsage',
  description: 'The calling key\'s account\'s usage history from the usage record.',
  fields: { rows: { type: new GraphQLNonNull(new GraphQLList(new GraphQLNonNull(row))), description: 'Periods with charged calls, oldest first.' } },
});

interface UsageArgs {
  readonly from?: string | null;
  readonly to?: string | null;
  readonly granularity?: string | null;
  readonly groupBy?: readonly string[] | null;
}

const args: Record<UsageParameter['name'], { type: GraphQLInputType; description?: string }> = {
  from: { type: GraphQLString, description: describe('from') },
  to: { type: GraphQLString, description: describe('to') },
  granularity: { type: granularity, description: describe('granularity') },
  groupBy: { type: new GraphQLList(new GraphQLNonNull(group)), description: describe('groupBy') },
};

export function usageField(clock: () => number = Date.now): GraphQLFieldConfig<unknown, GraphqlContext> {
  return {
    type: usage,
    description: 'Calls and units of the calling key\'s account per UTC day or hour, optionally per key, operation and interface (free).',
    args,
    async resolve(_source, input: UsageArgs, ctx) {
      const parsed = parseUsageQuery(input, clock());
      if (!parsed.ok) throw new GraphQLError(parsed.message, { extensions: { code: 400, argumentPath: [parsed.parameter] } });
      const read = ctx.state.admission?.read;
      // Not expected: admission admits every plan with a usage read, or the request never runs.
      if (!read) throw new GraphQLError('the usage read was not admitted', { extensions: { code: 500 } });
      const rows = await ctx.meter.accountUsage(read, parsed.query);
      if ('httpStatus' in rows) throw new GraphQLError(rows.message, { extensions: { code: rows.httpStatus } });
      return { rows };
    },
  };
}
