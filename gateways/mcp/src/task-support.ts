/**
 * Which tools run as MCP tasks: the ones whose work is a bulk job (job-tasks.ts). Their tool entry
 * says `execution: {taskSupport: "optional"}` (a client without tasks calls them as before); every
 * other tool leaves `execution` out, which the specification reads as forbidden.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { BATCH_REGISTRY } from '@retail/gateway-shared';

export const TASK_TOOLS: ReadonlySet<string> = new Set(['retail_job_create', BATCH_REGISTRY.mcpTool]);

export function executionOf(tool: string): Pick<Tool, 'execution'> {
  return TASK_TOOLS.has(tool) ? { execution: { taskSupport: 'optional' } } : {};
}
