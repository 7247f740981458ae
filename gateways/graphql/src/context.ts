/**
 * The per-request context of the plugins and resolvers: the credentials (a missing or conflicting
 * key refuses the request before any GraphQL work), what admission decided, each planned call's run.
 */
import { HeaderMap } from '@apollo/server';
import { type CallFailure, type CallSuccess, type CoreClient, type Refusal, denialFailure, executeOperation, refusalHeaders, requestIdFrom } from '@retail/gateway-shared';
import type { AdmittedRead, HeaderBag, Hold, Meter, RateLimitState } from '@retail/metering/api';
import { GraphQLError } from './graphql.js';
import { runBatch } from './batch-run.js';
import type { PlannedCall, RequestPlan } from './plan.js';

export type CallResult = CallSuccess | CallFailure;
/** `read`: the key's account, admitted for the `retailUsage` fields (usage-field.ts) when the plan has any. */
export type Admission = { readonly plan: RequestPlan; readonly hold?: Hold | undefined; readonly rateLimit?: RateLimitState | undefined; readonly read?: AdmittedRead | undefined };

/** What the plugins decide about a request. */
export interface RequestState {
  admission?: Admission;
  refusal?: Refusal;
  settled?: boolean;
}

export interface GraphqlContext {
  readonly requestId: string;
  readonly headers: HeaderBag;
  readonly key: string;
  /** The ledger, for the free fields that read the key's own account (usage-field.ts). */
  readonly meter: Meter;
  /**
   * Apollo gives plugins and resolvers a shallow copy of the context this function made, while the
   * response's `close` handler holds the original: so what they decide lives in one shared object,
   * which every copy reaches, never in properties of the context itself.
   */
  readonly state: RequestState;
  /** Each planned call's outcome; a call asked for twice runs once. */
  readonly runs: Map<PlannedCall, Promise<CallResult>>;
  run(call: PlannedCall): Promise<CallResult>;
}

/** Apollo's context function: credentials into the context, or the refusal as an HTTP error. */
export function createContext(meter: Meter, core: CoreClient, headers: HeaderBag): GraphqlContext {
  const requestId = requestIdFrom(headers);
  const credentials = meter.readCredentials(headers, 'graphql');
  if (!credentials.ok) {
    const { httpStatus: status, message } = credentials.denial;
    const http = { status, headers: new HeaderMap(Object.entries(refusalHeaders(meter, requestId, { failure: denialFailure(credentials.denial) }))) };
    throw new GraphQLError(message, { extensions: { code: status, http } });
  }
  const runs: GraphqlContext['runs'] = new Map();
  const state: RequestState = {};
  let batch: ReadonlyMap<PlannedCall, Promise<CallResult>> | undefined;
  const run = (call: PlannedCall): Promise<CallResult> => {
    // The admitted key's account: the watcher acts for it (the core ignores it).
    const accountId = state.admission?.hold?.accountId;
    const options = { requestId, ...(accountId ? { accountId } : {}) };
    // Batched calls all go in one BatchLookup, sent when the first of them runs.
    if (call.batched) batch ??= runBatch(core, state.admission?.plan.calls.filter((c) => c.batched) ?? [call], options);
    if (!runs.has(call)) runs.set(call, (call.batched && batch?.get(call)) || executeOperation(core, call.operation, call.request, { ...options, style: 'graphql' }));
    return runs.get(call) as Promise<CallResult>;
  };
  return { requestId, headers, key: credentials.key, meter, state, runs, run };
}
