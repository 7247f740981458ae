/**
 * Toolsets: the groups `tools/list` answers, so an agent pays in its context only for the tools it
 * will use. The operator sets the default (`MCP_TOOLSETS`, default `lookup,search`); a client picks
 * its own with `?toolsets=` on the MCP URL (`all` for every tool), and output schemas with
 * `?outputSchemas=true` (`MCP_OUTPUT_SCHEMAS`). A toolset decides what is listed, not what may be
 * called: a client that knows a tool's name can call it from any connection.
 * Every tool is in exactly one toolset (tools.test.ts proves it), derived from the registry it comes from.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { JOB_REGISTRY, REGISTRY, USAGE_TOOL, WATCH_REGISTRY } from '@retail/gateway-shared';
import { BATCH_TOOL } from './batch-tool.js';

/** The per-product lookups (a BatchItem's operations are the same eight), the rest of the core's lookups, watches, bulk work. */
const PER_PRODUCT = new Set(['GetProduct', 'GetAsinFromGtin', 'GetGtinFromAsin', 'GetProductVariants', 'GetProductOffers', 'GetProductReviews', 'GetProductStock', 'GetProductSales']);

export const TOOLSETS = {
  lookup: { description: 'one product: details, identifiers, variants, offers, reviews, stock, sales', tools: REGISTRY.filter((op) => PER_PRODUCT.has(op.name)).map((op) => op.mcpTool) },
  search: { description: 'many products: search, autocomplete, deals, best sellers, sellers, authors, categories', tools: REGISTRY.filter((op) => !PER_PRODUCT.has(op.name)).map((op) => op.mcpTool) },
  watches: { description: 'watches on products, price and stock history, events, webhook deliveries', tools: WATCH_REGISTRY.map((op) => op.mcpTool) },
  bulk: { description: 'batches of lookups and bulk jobs', tools: [BATCH_TOOL.name, ...JOB_REGISTRY.map((op) => op.mcpTool)] },
  account: { description: 'your own account: calls and units per day or hour', tools: [USAGE_TOOL] },
} as const satisfies Record<string, { description: string; tools: readonly string[] }>;

export type ToolsetName = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['lookup', 'search'];

export type ToolsetChoice = { readonly ok: true; readonly toolsets: readonly ToolsetName[] } | { readonly ok: false; readonly message: string };

/** A comma list of toolset names (`all` for every one); blank is the fallback. Names are case-insensitive. */
export function parseToolsets(value: string | undefined, fallback: readonly ToolsetName[], name = 'toolsets'): ToolsetChoice {
  const names = (value ?? '').split(',').map((n) => n.trim().toLowerCase()).filter(Boolean);
  if (names.length === 0) return { ok: true, toolsets: fallback };
  if (names.includes('all')) return { ok: true, toolsets: TOOLSET_NAMES };
  const unknown = names.filter((n) => !(n in TOOLSETS));
  // The value is not echoed: an environment's never is (@retail/contract/environment), and the list says what is allowed.
  if (unknown.length > 0) return { ok: false, message: `${name} must be a comma list of ${TOOLSET_NAMES.join(', ')} or all` };
  return { ok: true, toolsets: TOOLSET_NAMES.filter((n) => names.includes(n)) };
}

const lists = new Map<string, readonly Tool[]>();

/** The tools of the chosen toolsets, in the list's order; without their output schemas unless asked. Built once per choice. */
export function listedTools(tools: readonly Tool[], toolsets: readonly ToolsetName[], outputSchemas: boolean): readonly Tool[] {
  const key = `${toolsets.join(',')}|${outputSchemas}`;
  let listed = lists.get(key);
  if (!listed) {
    const chosen = new Set<string>(toolsets.flatMap((t) => TOOLSETS[t].tools));
    listed = tools.filter((t) => chosen.has(t.name)).map((t) => (outputSchemas ? t : withoutOutputSchema(t)));
    lists.set(key, listed);
  }
  return listed;
}

function withoutOutputSchema(tool: Tool): Tool {
  const { outputSchema: _omitted, ...rest } = tool;
  return rest;
}
