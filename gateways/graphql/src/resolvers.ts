/**
 * Resolvers that execute the request plan: a root field starts its planned calls (each exactly
 * once), and the fields of its data-root type read from the call that fills them. A failed call
 * reports its error once, on the first field that needs it; the root is null when all its calls
 * failed, so one failed operation is one `errors[]` entry.
 */
import type { WireObject, WireValue } from '@retail/contract';
import { GraphQLError, type GraphQLFieldResolver, defaultFieldResolver, getNullableType, isListType } from './graphql.js';
import type { PlannedCall, RequestPlan, RootPlan } from './plan.js';

/** A failed operation as the client sees it: the HTTP status the same failure has on REST. */
export interface OperationFailure {
  readonly status: number;
  readonly message: string;
  /** The argument at fault, when the core named one (`["gtin"]`). */
  readonly argumentPath?: readonly string[];
}

export type CallOutcome = { readonly ok: true; readonly data: WireObject } | { readonly ok: false; readonly failure: OperationFailure };

export interface GraphqlContext {
  readonly plan: RequestPlan;
  /** Runs a planned call; the same call asked twice runs once. */
  run(call: PlannedCall): Promise<CallOutcome>;
}

export function operationError(failure: OperationFailure): GraphQLError {
  return new GraphQLError(failure.message, {
    extensions: { code: failure.status, ...(failure.argumentPath ? { argumentPath: failure.argumentPath } : {}) },
  });
}

/** The value a root field resolves to: the plan and the outcomes of its calls. */
class RootSource {
  private readonly reported = new Set<number>();

  constructor(
    private readonly root: RootPlan,
    private readonly outcomes: ReadonlyMap<number, CallOutcome>,
  ) {}

  resolve(responseKey: string, fieldName: string): WireValue {
    const call = this.root.fieldCalls.get(responseKey);
    const outcome = call && this.outcomes.get(call.id);
    if (!call || !outcome) return null;
    if (!outcome.ok) {
      if (this.reported.has(call.id)) return null;
      this.reported.add(call.id);
      throw operationError(outcome.failure);
    }
    const data = outcome.data[call.operation.dataRoot];
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return null;
    return data[fieldName] ?? null;
  }
}

export const resolveRoot: GraphQLFieldResolver<unknown, GraphqlContext> = async (_source, _args, ctx, info) => {
  const root = ctx.plan.roots.get(info.path.key as string);
  if (!root) return null;
  const outcomes = new Map<number, CallOutcome>();
  await Promise.all(root.calls.map(async (call) => outcomes.set(call.id, await ctx.run(call))));
  const failed = root.calls.map((c) => outcomes.get(c.id)).filter((o): o is CallOutcome & { ok: false } => o !== undefined && !o.ok);
  if (root.calls.length > 0 && failed.length === root.calls.length) throw operationError(failed[0]!.failure);
  // Calls that succeeded without their data root (the record is absent) leave the root null, as
  // REST leaves the root out of `data`.
  const empty = root.calls.every((c) => {
    const o = outcomes.get(c.id);
    return !o?.ok || o.data[c.operation.dataRoot] === undefined;
  });
  if (root.calls.length > 0 && empty) return null;
  if (isListType(getNullableType(info.returnType))) {
    const first = root.calls[0];
    const outcome = first && outcomes.get(first.id);
    return first && outcome?.ok ? (outcome.data[first.operation.dataRoot] ?? null) : null;
  }
  return new RootSource(root, outcomes);
};

// Typed on `unknown` context so it can sit on generated types; the executor always passes a GraphqlContext.
export const resolveRootField: GraphQLFieldResolver<unknown, unknown> = (source, args, ctx, info) => {
  if (source instanceof RootSource) return source.resolve(info.path.key as string, info.fieldName);
  return defaultFieldResolver(source, args, ctx, info);
};
