/**
 * `dryRun: true` on every metered tool: the units the call would charge, answered without running
 * it (priceCall in @retail/gateway-shared: admitted as a free call, rate-limited like one, nothing
 * held, fetched or charged). Its answer is `{dryRun: {units, unitsRemaining?, affordable?}}`, a
 * shape of its own in the tool's outputSchema. The batch tool takes it too (priceBatch: one unit per
 * well-formed item).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { RULE_MESSAGES } from '@retail/contract';
import type { JsonSchema, Operation, ParameterError, PriceResult } from '@retail/gateway-shared';

/** Whether a tool takes `dryRun`: the metered ones. */
export const takesDryRun = (op: Operation): boolean => op.billing === 'metered';

/** The argument, described once in the server instructions (every metered tool carries it). */
export const DRY_RUN_ARGUMENT: JsonSchema = { type: 'boolean' };

export const DRY_RUN_INSTRUCTIONS = 'Every metered tool takes dryRun: true, which answers the units the call would charge without running it, free (it still counts against the rate limit).';

export const DRY_RUN_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    dryRun: {
      type: 'object',
      properties: { units: { type: 'integer', minimum: 0 }, unitsRemaining: { type: 'number' }, affordable: { type: 'boolean' } },
      required: ['units'],
      additionalProperties: false,
    },
  },
  required: ['dryRun'],
  additionalProperties: false,
};

export type DryRunSplit = { readonly dryRun: boolean; readonly errors: ParameterError[]; readonly params: Record<string, unknown> };

/** Takes `dryRun` out of a metered tool's arguments; anything but a boolean is refused by name. */
export function takeDryRun(op: Operation, args: Record<string, unknown>): DryRunSplit {
  return takesDryRun(op) ? takeDryRunArgument(args) : { dryRun: false, errors: [], params: args };
}

/** Takes `dryRun` out of the arguments of a tool that takes it (the batch tool has no operation of its own). */
export function takeDryRunArgument(args: Record<string, unknown>): DryRunSplit {
  if (!Object.hasOwn(args, 'dryRun')) return { dryRun: false, errors: [], params: args };
  const { dryRun, ...params } = args;
  if (typeof dryRun === 'boolean') return { dryRun, errors: [], params };
  return { dryRun: false, errors: [{ message: RULE_MESSAGES.boolean('dryRun'), path: ['dryRun'] }], params };
}

/** A priced call's answer. */
export function dryRunAnswer(price: PriceResult & { ok: true }, _meta: Record<string, unknown>): CallToolResult {
  const { units, unitsRemaining, affordable } = price;
  const body = { dryRun: { units, ...(unitsRemaining !== undefined ? { unitsRemaining } : {}), ...(affordable !== undefined ? { affordable } : {}) } };
  const covered = affordable === false ? ' Your balance does not cover it.' : '';
  const summary = `Dry run: this call would charge ${units} unit${units === 1 ? '' : 's'} if it succeeds; nothing was run or charged.${covered}`;
  return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(body)}` }], structuredContent: body, _meta };
}
