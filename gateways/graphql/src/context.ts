/**
 * The per-request context of the plugins and resolvers: the credentials (a missing or conflicting
 * key refuses the request before any GraphQL work), what admission decided, each planned call's run.
 */
import { HeaderMap } from '@apollo/server';
import { type CallFailure, type CallSuccess, type CoreClient, executeOperation, meteringHeaders, requestIdFrom, singleFailure } from '@retail/gateway-shared';
import type { HeaderBag, Hold, Meter, RateLimitState } from '@retail/metering/api';
import { GraphQLError } from './graphql.js';
import type { PlannedCall, RequestPlan } from './plan.js';

export type CallResult = CallSuccess | CallFailure;
/** A request-level refusal (its HTTP status and envelope) and the rate limit state when known. */
export type Refusal = { readonly failure: CallFailure; readonly rateLimit?: RateLimitState | undefined };
export type Admission = { readonly plan: RequestPlan; readonly hold?: Hold | undefined; readonly rateLimit?: RateLimitState | undefined };

export interface GraphqlContext {
  readonly requestId: string;
  readonly headers: HeaderBag;
  readonly key: string;
  admission?: Admission;
  refusal?: Refusal;
  settled?: boolean;
  /** Each planned call's outcome; a call asked for twice runs once. */
  readonly runs: Map<PlannedCall, Promise<CallResult>>;
  run(call: PlannedCall): Promise<CallResult>;
}

/** Headers of a refused request: nothing charged, the rate limit state and any wait. */
export function refusalHeaders(meter: Meter, requestId: string, { failure, rateLimit }: Refusal): Record<string, string> {
  const wait = failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {};
  return meteringHeaders(meter, { requestId, charged: 0, ...(rateLimit ? { rateLimit } : {}), ...wait });
}

/** Apollo's context function: credentials into the context, or the refusal as an HTTP error. */
export function createContext(meter: Meter, core: CoreClient, headers: HeaderBag): GraphqlContext {
  const requestId = requestIdFrom(headers);
  const credentials = meter.readCredentials(headers, 'graphql');
  if (!credentials.ok) {
    const { httpStatus: status, reason, message, retryAfterSeconds } = credentials.denial;
    const http = { status, headers: new HeaderMap(Object.entries(refusalHeaders(meter, requestId, { failure: singleFailure(status, reason, message, undefined, retryAfterSeconds) }))) };
    throw new GraphQLError(message, { extensions: { code: status, http } });
  }
  const runs: GraphqlContext['runs'] = new Map();
  const run = (call: PlannedCall): Promise<CallResult> => {
    if (!runs.has(call)) runs.set(call, executeOperation(core, call.operation, call.request, { requestId, style: 'graphql' }));
    return runs.get(call) as Promise<CallResult>;
  };
  return { requestId, headers, key: credentials.key, runs, run };
}
