/**
 * Usage as its caller made it: the public name of each operation on the interface that called it
 * (a REST path, a GraphQL field, an MCP tool), not the RPC name a user never typed. Derived from the
 * operation options declared in the proto (@retail/contract's operationByName), like every interface.
 */
import { operationByName } from '@retail/contract';
import type { UsageDay, UsageInterface } from '@retail/metering/api';

/** How the page names where calls came from. */
const INTERFACE_NAMES: Readonly<Record<UsageInterface, string>> = {
  rest: 'REST',
  graphql: 'GraphQL',
  mcp: 'MCP tool',
  // A watch's refresh and the console's history reads (charged by account: docs/console.md, Watches).
  watcher: 'Watches',
  jobs: 'Bulk jobs',
};

export interface LabelledUsageDay extends UsageDay {
  /** The operation's public name on that interface: "GET /api/retail/product", "retailProduct", "retail_product". */
  readonly call: string;
  /** The interface in words: "REST", "MCP tool", "Watches"; "not recorded" for old counters. */
  readonly via: string;
}

/**
 * The public name of `operation` as `iface` exposes it. Background work (watch refreshes, bulk jobs)
 * and counters without an interface are named by the REST route of what they read. An operation the
 * contract does not know keeps its RPC name.
 */
export function publicCallName(operation: string, iface: UsageInterface | undefined): string {
  const declared = operationByName(operation);
  if (!declared) return operation;
  const { restPath, graphqlFields, mcpTool, httpMethod } = declared.options;
  if (iface === 'graphql' && graphqlFields[0]) return graphqlFields[0];
  if (iface === 'mcp' && mcpTool) return mcpTool;
  return `${httpMethod || 'GET'} ${restPath}`;
}

export function labelUsage(day: UsageDay): LabelledUsageDay {
  return { ...day, call: publicCallName(day.operation, day.interface), via: day.interface ? INTERFACE_NAMES[day.interface] : 'not recorded' };
}
