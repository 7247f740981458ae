/**
 * A tool's behaviour hints (MCP ToolAnnotations), derived from the registry so they cannot drift
 * from what the operation does. Every hint is stated, even where the spec makes it meaningless for a
 * read-only tool, because the spec's defaults (destructive, open world) are the alarming ones.
 */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { HttpMethod, Operation } from '@retail/gateway-shared';

/** Methods whose call removes (DELETE) or overwrites (PATCH) state the account had. */
const DESTRUCTIVE_METHODS: ReadonlySet<HttpMethod> = new Set(['DELETE', 'PATCH']);

export function annotationsOf(op: Operation): ToolAnnotations {
  return {
    // From the RPC's idempotency_level: NO_SIDE_EFFECTS reads.
    readOnlyHint: op.readOnly,
    // Delete removes a watch with its events and deliveries; update replaces its label, interval,
    // conditions or webhook. Create and redeliver only add (a watch, a queued delivery).
    destructiveHint: !op.readOnly && DESTRUCTIVE_METHODS.has(op.httpMethod),
    // NO_SIDE_EFFECTS and IDEMPOTENT RPCs: repeating the call changes nothing more.
    idempotentHint: op.idempotent,
    // Open world: the answer is marketplace data about any product, which is exactly what units pay
    // for (the 17 lookups and product history). The free operations act on the account's own
    // watches, events and deliveries, a closed domain the account itself wrote; the refreshes and
    // webhook posts a watch causes happen later in the watcher, not in the tool call.
    openWorldHint: op.billing === 'metered',
  };
}
