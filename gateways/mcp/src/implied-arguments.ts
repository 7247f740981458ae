/**
 * Flags a client implies by giving a list. proto3 cannot tell an absent repeated field from an empty
 * one, so a request that replaces a list carries a bool `replace_<list>` beside it
 * (UpdateWatch.replace_conditions), and the proto asks every gateway to set it when the list is
 * present: giving `conditions` (even `[]`) means "replace them". A flag the client sent is kept.
 */
import type { Operation } from '@retail/gateway-shared';

interface ImpliedFlag {
  /** Argument name of the list ("conditions"). */
  readonly list: string;
  /** Argument name of its flag ("replaceConditions"). */
  readonly flag: string;
}

function impliedFlagsOf(op: Operation): ImpliedFlag[] {
  return op.parameters.flatMap((list) => {
    if (list.kind !== 'object-list' && list.kind !== 'string-list' && list.kind !== 'enum-list') return [];
    const flag = op.parameters.find((p) => p.kind === 'boolean' && p.field.name === `replace_${list.field.name}`);
    return flag ? [{ list: list.name, flag: flag.name }] : [];
  });
}

const FLAGS = new Map<Operation, readonly ImpliedFlag[]>();

/** The arguments with every implied flag set; the same object when nothing is implied. */
export function withImpliedFlags(op: Operation, args: Record<string, unknown>): Record<string, unknown> {
  let flags = FLAGS.get(op);
  if (!flags) FLAGS.set(op, (flags = impliedFlagsOf(op)));
  const missing = flags.filter(({ list, flag }) => Object.hasOwn(args, list) && !Object.hasOwn(args, flag));
  if (missing.length === 0) return args;
  return { ...args, ...Object.fromEntries(missing.map(({ flag }) => [flag, true])) };
}
