/**
 * `retail_account_usage`: the calling key's account's usage history as one free MCP tool, the same
 * rows `GET /api/account/usage` answers (`{data: {retailUsage: {rows}}}`). Its arguments and schemas
 * come from the shared declaration (gateway-shared usage-schema.ts), its checks from the metering
 * library, so it refuses what REST and GraphQL refuse with the same message. Free of units, but it
 * takes one token of the rate limit as every tools/call does (a read is a query of the record). Listed in the `account`
 * toolset, which is not a default one: an agent that wants it asks for it (or calls it by name).
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { ErrorReason } from '@retail/contract';
import { type CallFailure, ERROR_ENVELOPE_SCHEMA, type JsonSchema, USAGE_PARAMETERS, USAGE_ROOT, USAGE_SCHEMA, USAGE_TOOL, admitRead, denialFailure, meteringHeaders, requestIdFrom, singleFailure, unitsReport } from '@retail/gateway-shared';
import { parseUsageQuery } from '@retail/metering/usage-query';
import type { HeaderBag, Meter } from '@retail/metering/api';
import { type RequestLevelError, envelope, isRequestLevel, refusalError } from './rpc-errors.js';

/** What the tool needs of the request (server.ts's RequestContext has it). */
export interface UsageToolContext {
  readonly meter: Meter;
  readonly headers: HeaderBag;
  /** Response headers of the call (RateLimit, Retry-After). */
  setHeaders(headers: Record<string, string>): void;
  onRefusal(error: RequestLevelError): void;
}

function inputSchema(): JsonSchema {
  const properties = Object.fromEntries(USAGE_PARAMETERS.map((p) => [
    p.name,
    p.name === 'groupBy' ? { type: 'array', items: p.schema, uniqueItems: true, description: p.description } : { ...p.schema, description: p.description },
  ]));
  return { type: 'object', properties, additionalProperties: false };
}

export const USAGE_TOOL_DEF: Tool = {
  name: USAGE_TOOL,
  description: `Calls and units your own account was charged per UTC day or hour, optionally per key, operation and interface, from the usage record. Free (counts against the rate limit as any call). Returns {data: {${USAGE_ROOT}: {rows: [{period, keyId?, operation?, interface?, calls, units}]}}}, oldest first.`,
  inputSchema: inputSchema() as Tool['inputSchema'],
  outputSchema: { type: 'object', oneOf: [{ type: 'object', properties: { data: { type: 'object', properties: { [USAGE_ROOT]: USAGE_SCHEMA }, required: [USAGE_ROOT] } }, required: ['data'] }, ERROR_ENVELOPE_SCHEMA] },
  // It reads the caller's own account: nothing changes, and no marketplace data is in the answer.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

const text = (value: string | string[] | undefined): string | undefined => (typeof value === 'string' ? value : undefined);

/** A refusal: request-level ones (401, 403, 503 …) are thrown so the HTTP status follows, the others are the isError envelope. */
function refused(ctx: UsageToolContext, failure: CallFailure): CallToolResult {
  if (isRequestLevel(failure.status, failure.reason)) {
    const refusal = refusalError(failure);
    ctx.onRefusal(refusal);
    throw refusal;
  }
  const body = envelope(failure.errors);
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as unknown as Record<string, unknown>, isError: true, _meta: unitsReport({ charged: 0 }) };
}

export async function callUsageTool(ctx: UsageToolContext, args: Record<string, unknown>, now: number = Date.now()): Promise<CallToolResult> {
  // Key (401), scope (403) and one token of the rate limit (429), as a lookup's tools/call, before
  // the arguments' 400s; no unit, nothing held. The gateway read these credentials already.
  const credentials = ctx.meter.readCredentials(ctx.headers, 'mcp');
  if (!credentials.ok) return refused(ctx, denialFailure(credentials.denial));
  const admitted = await admitRead(ctx.meter, { headers: ctx.headers, key: credentials.key, iface: 'mcp' });
  const retryAfterSeconds = admitted.ok ? undefined : admitted.failure.retryAfterSeconds;
  ctx.setHeaders(meteringHeaders(ctx.meter, { requestId: requestIdFrom(ctx.headers), rateLimit: admitted.rateLimit, charged: 0, retryAfterSeconds }));
  if (!admitted.ok) return refused(ctx, admitted.failure);
  const invalid = (message: string, parameter: string) => refused(ctx, singleFailure(400, ErrorReason.INVALID_ARGUMENT, message, [parameter]));
  for (const [name, value] of Object.entries(args)) {
    if (!USAGE_PARAMETERS.some((p) => p.name === name)) return invalid(`unknown parameter ${name}`, name);
    const list = name === 'groupBy';
    if (list ? !(Array.isArray(value) && value.every((v) => typeof v === 'string')) : typeof value !== 'string') {
      return invalid(`${name} must be ${list ? 'a list of strings' : 'a string'}`, name);
    }
  }
  const parsed = parseUsageQuery({ from: text(args.from as string), to: text(args.to as string), granularity: text(args.granularity as string), groupBy: args.groupBy as string[] | undefined }, now);
  if (!parsed.ok) return invalid(parsed.message, parsed.parameter);
  const rows = await ctx.meter.accountUsage(admitted.read, parsed.query);
  if ('httpStatus' in rows) return refused(ctx, denialFailure(rows));
  const body = { data: { [USAGE_ROOT]: { rows } } };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, _meta: unitsReport({ charged: 0 }) };
}
