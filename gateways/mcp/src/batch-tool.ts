/**
 * `retail_batch`: the batch call as one MCP tool, for agents. Its cap is small (10 items, said in
 * its description) and its records compact (the fields the proto marks bulky, such as image URLs,
 * feature bullets and technical specifications, are left out; the single tools return them), because
 * an agent's context is limited. Admitted, run and settled by the shared batch call, as on REST.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { JOB_MAX_ITEMS } from '@retail/contract';
import {
  API_REGISTRY, BATCH_REGISTRY, type BatchItemOutcome, argumentsJsonSchema, type CallFailure, type CoreClient, ERROR_ENVELOPE_SCHEMA, type JsonSchema, MessageSchemas, admitBatch, batchBodySchema, batchEntry, batchEntrySchema, batchItemRequestSchema,
  batchResponseSchema, priceBatch, responseJsonSchema, unitsReport,
} from '@retail/gateway-shared';
import { DRY_RUN_ARGUMENT, DRY_RUN_SCHEMA, dryRunAnswer, takeDryRunArgument } from './dry-run.js';
import type { HeaderBag, Meter } from '@retail/metering/api';
import { type RequestLevelError, envelope, isRequestLevel, refusalError } from './rpc-errors.js';
import { DEFAULT_LIST_LIMIT } from './answer-arguments.js';
import { compactRecord } from './compact-record.js';
import { executionOf } from './task-support.js';

/** What the tool needs of the request (server.ts's RequestContext has it). */
export interface BatchToolContext {
  readonly core: CoreClient;
  readonly meter: Meter;
  readonly headers: HeaderBag;
  setHeaders(headers: Record<string, string>): void;
  onRefusal(error: RequestLevelError): void;
}

/** Most items one `retail_batch` call may carry. */
export const MCP_BATCH_MAX_ITEMS = 10;

const OPERATION_NAMES = BATCH_REGISTRY.items.map((item) => item.name).join(', ');

function outputSchema(): Tool['outputSchema'] {
  const schemas = new MessageSchemas('#/$defs/', true);
  const entry = batchEntrySchema(schemas);
  // Called as a task, its result is the job (job-tasks.ts), as retail_job_get answers it.
  const { $defs: jobDefs, ...job } = responseJsonSchema(API_REGISTRY.find((op) => op.mcpTool === 'retail_job_get')!, { compact: true });
  return { type: 'object', oneOf: [batchResponseSchema(entry), ERROR_ENVELOPE_SCHEMA, DRY_RUN_SCHEMA, job], $defs: { ...schemas.defs, ...(jobDefs as Record<string, JsonSchema>) } };
}

/**
 * The arguments as a schema-validating client must see them: a call as a task is a bulk job
 * (job-tasks.ts), which takes up to JOB_MAX_ITEMS items and the job's `label` and `webhook`, so the
 * schema allows what a task call may send; the cap of a call without a task (10, refused above it
 * with a 400 naming `items`) and what only a task takes are said in the descriptions, as a JSON
 * Schema cannot depend on the request's `task` field.
 */
function inputSchema(): JsonSchema {
  const body = batchBodySchema(batchItemRequestSchema(), JOB_MAX_ITEMS);
  const properties = body.properties as Record<string, JsonSchema>;
  const job = argumentsJsonSchema(API_REGISTRY.find((op) => op.mcpTool === 'retail_job_create')!).properties as Record<string, JsonSchema>;
  const taskOnly = (schema: JsonSchema | undefined) => ({ ...schema, description: `${String(schema?.description ?? '')} As a task only.`.trim() });
  if (!job.label) throw new Error('retail_job_create takes no label');
  return {
    ...body,
    properties: {
      items: { ...properties.items, description: `At most ${MCP_BATCH_MAX_ITEMS} without a task; up to ${JOB_MAX_ITEMS.toLocaleString('en')} as a task.` },
      label: taskOnly(job.label),
      // Its object's fields are retail_job_create's (checked there); repeating them here would outgrow the bulk toolset's 20 KB.
      webhook: { type: 'object', description: 'As retail_job_create\'s webhook. As a task only.' },
      dryRun: DRY_RUN_ARGUMENT,
    },
  };
}

export const BATCH_TOOL: Tool = {
  name: BATCH_REGISTRY.mcpTool,
  description: [
    BATCH_REGISTRY.summary,
    `At most ${MCP_BATCH_MAX_ITEMS} items per call: your context is limited, so records are compact (long lists such as image URLs, feature bullets, technical specifications and review media are left out; the single tools return them).`,
    `Each item is {"operation", "params"}: operation one of ${OPERATION_NAMES}; params that lookup's arguments.`,
    'Each entry answers with its index: {index, status: 200, data} or {index, status, errors}. One unit per item that succeeds.',
    'Called as an MCP task, it runs as a bulk job of up to 100,000 items and the task\'s result links to the results.',
  ].join(' '),
  inputSchema: inputSchema() as Tool['inputSchema'],
  outputSchema: outputSchema(),
  // Lookups only: nothing changes, repeating is harmless, and the answers are marketplace data.
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  ...executionOf(BATCH_REGISTRY.mcpTool),
};

/** An item's entry with its record compact, as a single tool's default answer (its lists cut to their first items). */
function compactEntry(outcome: BatchItemOutcome) {
  if (!outcome.ok) return batchEntry(outcome);
  return { index: outcome.index, status: 200, data: compactRecord(outcome.item.op.response, outcome.data, { limit: DEFAULT_LIST_LIMIT, offset: 0 }).record };
}

/** A refused batch: a request-level refusal is thrown (its HTTP status follows), any other is the tool's isError envelope. */
function refusedBatch(ctx: BatchToolContext, result: CallFailure & { headers: Record<string, string>; requestId: string }): CallToolResult {
  ctx.setHeaders(result.headers);
  if (isRequestLevel(result.status, result.reason)) {
    const refusal = refusalError(result);
    ctx.onRefusal(refusal);
    throw refusal;
  }
  const body = envelope(result.errors);
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body as unknown as Record<string, unknown>, isError: true, _meta: { unitsCharged: 0, requestId: result.requestId } };
}

export async function callBatchTool(ctx: BatchToolContext, args: Record<string, unknown>): Promise<CallToolResult> {
  const priced = takeDryRunArgument(args);
  const input = { body: priced.params, at: [], style: 'mcp' as const, headers: ctx.headers, maxItems: MCP_BATCH_MAX_ITEMS };
  if (priced.errors.length > 0 || priced.dryRun) {
    // A dryRun that is no boolean is refused by the free admission, as a body that is no batch: never run.
    const price = await priceBatch({ meter: ctx.meter }, { ...input, argumentErrors: priced.errors });
    if (!price.ok) return refusedBatch(ctx, price);
    ctx.setHeaders(price.headers);
    return dryRunAnswer(price, { unitsCharged: 0, requestId: price.requestId });
  }
  const admission = await admitBatch({ core: ctx.core, meter: ctx.meter }, input);
  if (!admission.ok) return refusedBatch(ctx, admission.result);
  const settled = await admission.run(() => undefined);
  ctx.setHeaders(settled.headers);
  const items = [...settled.outcomes].sort((a, b) => a.index - b.index).map(compactEntry);
  const body = { data: { retailBatch: { items } } };
  const _meta = { ...unitsReport({ charged: settled.unitsCharged, remaining: settled.unitsRemaining }), requestId: admission.requestId };
  return { content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body, _meta };
}
