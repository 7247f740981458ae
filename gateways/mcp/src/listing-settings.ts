/**
 * MCP_TOOLSETS and MCP_OUTPUT_SCHEMAS, the operator's defaults for what `tools/list` answers
 * (toolsets.ts). A bad value stops the process with one line per variable, as every setting does.
 * Read by the same parser as the URL's `?toolsets=` (not a zod schema) so both accept exactly the same lists.
 */
import { GatewayConfigError } from '@retail/gateway-shared';
import { DEFAULT_TOOLSETS, type ToolsetName, parseToolsets } from './toolsets.js';

export interface ListingSettings {
  readonly toolsets: readonly ToolsetName[];
  readonly outputSchemas: boolean;
}

/** Throws a GatewayConfigError naming each bad variable. */
export function listingSettingsOf(env: NodeJS.ProcessEnv): ListingSettings {
  const problems: string[] = [];
  const toolsets = parseToolsets(env.MCP_TOOLSETS, DEFAULT_TOOLSETS, 'MCP_TOOLSETS');
  if (!toolsets.ok) problems.push(toolsets.message);
  const schemas = (env.MCP_OUTPUT_SCHEMAS ?? '').trim().toLowerCase();
  if (schemas !== '' && schemas !== 'true' && schemas !== 'false') problems.push('MCP_OUTPUT_SCHEMAS must be true or false');
  if (!toolsets.ok || problems.length > 0) throw new GatewayConfigError('mcp gateway', problems);
  return { toolsets: toolsets.toolsets, outputSchemas: schemas === 'true' };
}
