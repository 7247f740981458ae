/**
 * proto3 cannot tell an empty repeated field from an absent one, so a request that may replace a
 * list carries a `replace_<list>` flag beside it (UpdateWatchRequest: `conditions` and
 * `replace_conditions`, whose description says the interfaces set it). GraphQL can tell `[]` from
 * an argument left out (or null), so the gateway sets the flag whenever the client wrote the list:
 * `conditions: []` removes every condition, no `conditions` leaves them as they are. A flag the
 * client wrote itself is kept, as REST and MCP keep it.
 */
import type { Operation } from '@retail/gateway-shared';

const FLAG_PREFIX = 'replace_';

/** Local names of `replace_<list>` flags by the local name of the list they mark, per operation. */
const flagsOf = new WeakMap<Operation, ReadonlyMap<string, string>>();

function listFlags(op: Operation): ReadonlyMap<string, string> {
  let flags = flagsOf.get(op);
  if (!flags) {
    const pairs: [string, string][] = [];
    for (const flag of op.parameters) {
      if (flag.kind !== 'boolean' || !flag.field.name.startsWith(FLAG_PREFIX)) continue;
      const list = op.parameters.find((p) => p.field.name === flag.field.name.slice(FLAG_PREFIX.length) && p.field.fieldKind === 'list');
      if (list) pairs.push([list.field.localName, flag.field.localName]);
    }
    flags = new Map(pairs);
    flagsOf.set(op, flags);
  }
  return flags;
}

/** The request init with each given list's `replace_` flag set, unless the client set it. */
export function markGivenLists(op: Operation, request: Record<string, unknown>): Record<string, unknown> {
  const marked = { ...request };
  for (const [list, flag] of listFlags(op)) if (request[list] !== undefined && request[flag] === undefined) marked[flag] = true;
  return marked;
}
