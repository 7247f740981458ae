/**
 * The MCP tools, one per operation of the registry (the 17 lookups and the watch operations): name
 * from `mcp_tool`, description from the proto summary only (marketplace text never reaches a
 * description; a job's create adds the item form), `inputSchema` = argumentsJsonSchema (nested
 * objects included, a job's items as `{operation, params}`, unknown arguments refused), the REST
 * 200 body as the success shape of `outputSchema`, and hints from annotations.ts.
 */
import type { DescMessage } from '@bufbuild/protobuf';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { recordOfResponse } from '@retail/contract';
import {
  API_REGISTRY, ERROR_ENVELOPE_SCHEMA, JOB_ITEM_FORM, type JsonSchema, type Operation, REGISTRY, argumentsJsonSchema, jobItemsParameter, responseJsonSchema,
} from '@retail/gateway-shared';
import { ANSWER_ARGUMENTS } from './answer-arguments.js';
import { ANSWER_SIZES } from './answer-sizes.js';
import { DRY_RUN_ARGUMENT, DRY_RUN_SCHEMA, takesDryRun } from './dry-run.js';
import { withModelDefaultSchemas } from './model-defaults.js';
import { withCompactIncidentArguments } from './incident-argument.js';
import { annotationsOf } from './annotations.js';
import { BATCH_TOOL } from './batch-tool.js';
import { USAGE_TOOL_DEF } from './usage-tool.js';
import { executionOf } from './task-support.js';

/**
 * The REST 200 body, published verbatim, or the error envelope. The envelope branch exists because
 * an operation error is an `isError` result whose structuredContent is the envelope, and the SDK's
 * Client validates structuredContent against outputSchema even on errors. `$defs` move to the root
 * so the body schema's `#/$defs/…` references still resolve.
 */
export function outputSchema(op: Operation): JsonSchema {
  // Every answer is a compact record (compact-record.ts): no bulky fields, nothing always present.
  const { $defs, ...body } = responseJsonSchema(op, { compact: true });
  return { type: 'object', oneOf: [body, ERROR_ENVELOPE_SCHEMA, ...(takesDryRun(op) ? [DRY_RUN_SCHEMA] : [])], ...($defs ? { $defs } : {}) };
}

const LOOKUPS = new Set(REGISTRY);

/** Whether a tool's answer cuts its lists (`limit`, `cursor`): the lookups; the watch and job tools page by their own parameters. */
export function cutsLists(op: Operation): boolean {
  return LOOKUPS.has(op);
}

/** The message of an operation's record (its data root, or each item of a list root), which `fields` paths name. */
export function recordOf(op: Operation): DescMessage {
  const message = recordOfResponse(op.response);
  if (!message) throw new Error(`${op.name}: its data root holds no message`);
  return message;
}

function inputSchemaOf(op: Operation): JsonSchema {
  const schema = argumentsJsonSchema(op);
  const properties = {
    ...withModelDefaultSchemas(op.mcpTool, schema.properties as Record<string, JsonSchema>),
    ...(cutsLists(op) ? ANSWER_ARGUMENTS : {}),
    ...(takesDryRun(op) ? { dryRun: DRY_RUN_ARGUMENT } : {}),
  };
  return { ...schema, properties };
}

const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** What the tool answers and how large, from the measured sizes (scripts/mcp-answer-sizes.ts). */
function returns(op: Operation): string {
  const size = ANSWER_SIZES[op.mcpTool];
  const typical = size ? `, typically ${kilobytes(size.median)}, at most ${kilobytes(size.largest)} measured` : '';
  return `Returns {data: {${op.dataRoot}}}, compact${typical}.`;
}

function descriptionOf(op: Operation): string {
  return [op.summary, returns(op), ...(jobItemsParameter(op) ? [JOB_ITEM_FORM] : [])].join(' ');
}

export function toolOf(op: Operation): Tool {
  return {
    name: op.mcpTool,
    description: descriptionOf(op),
    inputSchema: inputSchemaOf(op) as Tool['inputSchema'],
    outputSchema: outputSchema(op) as Tool['outputSchema'],
    annotations: annotationsOf(op),
    ...executionOf(op.mcpTool),
  };
}

/** One tool per operation, the batch tool and the account's usage history. */
export const TOOLS: readonly Tool[] = [...[...API_REGISTRY.map(toolOf), BATCH_TOOL].map(withCompactIncidentArguments), USAGE_TOOL_DEF];

/** Tools whose calls are never charged (managing watches, reading events and deliveries, the account's usage). */
export const FREE_TOOLS: readonly string[] = [...API_REGISTRY.filter((op) => op.billing === 'free').map((op) => op.mcpTool), USAGE_TOOL_DEF.name];

const BY_TOOL = new Map(API_REGISTRY.map((op) => [op.mcpTool, op]));

export function operationOfTool(name: string): Operation | undefined {
  return BY_TOOL.get(name);
}
