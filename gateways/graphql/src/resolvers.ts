/**
 * Resolvers that run the admitted plan: a root field starts its planned calls (each once) and the
 * fields of its data-root type read from the call that fills them. A failed call reports its error
 * once, on the first field that needs it; a root whose calls all failed is null with that error.
 */
import type { WireValue } from '@retail/contract';
import type { CallFailure } from '@retail/gateway-shared';
import type { CallResult, GraphqlContext } from './context.js';
import { GraphQLError, type GraphQLFieldResolver, defaultFieldResolver, getNullableType, isListType } from './graphql.js';
import type { PlannedCall, RootPlan } from './plan.js';

/** A failed operation as the client sees it: the HTTP status the same failure has on REST, and the argument at fault. */
export function operationError(failure: CallFailure): GraphQLError {
  const entry = failure.errors[0];
  const argumentPath = entry?.path?.length ? { argumentPath: entry.path } : {};
  return new GraphQLError(entry?.message ?? 'internal error', { extensions: { code: failure.status, ...argumentPath } });
}

/** The data root of a successful call, when the record is present. */
const dataOf = (call: PlannedCall, result: CallResult | undefined): WireValue | undefined => (result?.ok ? result.data[call.operation.dataRoot] : undefined);

/** What a root field resolves to: its plan and its calls' results. */
class RootSource {
  private readonly reported = new Set<PlannedCall>();

  constructor(
    private readonly root: RootPlan,
    private readonly results: ReadonlyMap<PlannedCall, CallResult>,
  ) {}

  resolve(responseKey: string, fieldName: string): WireValue {
    const call = this.root.fieldCalls.get(responseKey);
    const result = call && this.results.get(call);
    if (!call || !result || (!result.ok && this.reported.has(call))) return null;
    if (!result.ok) {
      this.reported.add(call);
      throw operationError(result);
    }
    const data = dataOf(call, result);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? (data[fieldName] ?? null) : null;
  }
}

/** A root's value once its calls ran: its source, null, or (all calls failed) the first error, to throw or to place in a list. */
async function resolvePlan(root: RootPlan, ctx: GraphqlContext, list: boolean): Promise<WireValue | RootSource | GraphQLError> {
  const refused = root.errors?.[0];
  if (refused) return new GraphQLError(refused.message, { extensions: { code: 400, argumentPath: refused.path } });
  const results = new Map(await Promise.all(root.calls.map(async (call) => [call, await ctx.run(call)] as const)));
  const failed = [...results.values()].filter((r): r is CallFailure => !r.ok);
  if (failed[0] && failed.length === root.calls.length) return operationError(failed[0]);
  // Calls that succeeded without their record leave the root null, as REST leaves it out of `data`.
  // A root without calls selects only `__typename`.
  if (root.calls.length > 0 && root.calls.every((c) => dataOf(c, results.get(c)) === undefined)) return null;
  const first = root.calls[0];
  if (list) return (first && dataOf(first, results.get(first))) ?? null;
  return new RootSource(root, results);
}

export const resolveRoot: GraphQLFieldResolver<unknown, GraphqlContext> = async (_source, _args, ctx, info) => {
  const root = ctx.state.admission?.plan.roots.get(info.path.key as string);
  if (!root) return null;
  // A batch list field: one value per element; graphql-js places an element's error at [field, index].
  if (root.elements) return Promise.all(root.elements.map((element) => resolvePlan(element, ctx, false)));
  const value = await resolvePlan(root, ctx, isListType(getNullableType(info.returnType)));
  if (value instanceof GraphQLError) throw value;
  return value;
};

// Typed on `unknown` context so it can sit on generated types; the executor always passes a GraphqlContext.
export const resolveRootField: GraphQLFieldResolver<unknown, unknown> = (source, args, ctx, info) =>
  source instanceof RootSource ? source.resolve(info.path.key as string, info.fieldName) : defaultFieldResolver(source, args, ctx, info);
