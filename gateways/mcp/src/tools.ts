/**
 * The MCP tools, one per operation of the registry (the 17 lookups and the watch operations): name
 * from `mcp_tool`, description from the proto summary only (marketplace text never reaches a
 * description; a job's create adds the item form), `inputSchema` = argumentsJsonSchema (nested
 * objects included, a job's items as `{operation, params}`, unknown arguments refused), the REST
 * 200 body as the success shape of `outputSchema`, and hints from annotations.ts.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  API_REGISTRY, ERROR_ENVELOPE_SCHEMA, JOB_ITEM_FORM, type JsonSchema, type Operation, argumentsJsonSchema, carriesJobResults, jobItemsParameter, responseJsonSchema,
} from '@retail/gateway-shared';
import { annotationsOf } from './annotations.js';
import { BATCH_TOOL } from './batch-tool.js';

/**
 * The REST 200 body, published verbatim, or the error envelope. The envelope branch exists because
 * an operation error is an `isError` result whose structuredContent is the envelope, and the SDK's
 * Client validates structuredContent against outputSchema even on errors. `$defs` move to the root
 * so the body schema's `#/$defs/…` references still resolve.
 */
export function outputSchema(op: Operation): JsonSchema {
  // A job's results carry item records, compact on MCP (response-data.ts); nothing else in such a response is a record.
  const { $defs, ...body } = responseJsonSchema(op, { compact: carriesJobResults(op.response) });
  return { type: 'object', oneOf: [body, ERROR_ENVELOPE_SCHEMA], ...($defs ? { $defs } : {}) };
}

export function toolOf(op: Operation): Tool {
  return {
    name: op.mcpTool,
    description: jobItemsParameter(op) ? `${op.summary} ${JOB_ITEM_FORM}` : op.summary,
    inputSchema: argumentsJsonSchema(op) as Tool['inputSchema'],
    outputSchema: outputSchema(op) as Tool['outputSchema'],
    annotations: annotationsOf(op),
  };
}

/** One tool per operation, and the batch tool. */
export const TOOLS: readonly Tool[] = [...API_REGISTRY.map(toolOf), BATCH_TOOL];

/** Tools whose calls are never charged (managing watches, reading events and deliveries). */
export const FREE_TOOLS: readonly string[] = API_REGISTRY.filter((op) => op.billing === 'free').map((op) => op.mcpTool);

const BY_TOOL = new Map(API_REGISTRY.map((op) => [op.mcpTool, op]));

export function operationOfTool(name: string): Operation | undefined {
  return BY_TOOL.get(name);
}
