/**
 * The per-request context Apollo hands to the plugins and resolvers: the credentials read from
 * the headers (a missing or conflicting key refuses the request before any GraphQL work), then
 * what admission decided, and each planned call's one run.
 */
import { HeaderMap } from '@apollo/server';
import { type CallFailure, type CallSuccess, type CoreClient, executeOperation, meteringHeaders, requestIdFrom, singleFailure } from '@retail/gateway-shared';
import type { HeaderBag, Hold, Meter, RateLimitState } from '@retail/metering/api';
import { GraphQLError } from './graphql.js';
import type { PlannedCall, RequestPlan } from './plan.js';

export type CallResult = CallSuccess | CallFailure;

/** A request-level refusal: its HTTP status and envelope, and the rate limit state when known. */
export interface Refusal {
  readonly failure: CallFailure;
  readonly rateLimit?: RateLimitState | undefined;
}

export interface Admission {
  readonly plan: RequestPlan;
  readonly hold?: Hold | undefined;
  readonly rateLimit?: RateLimitState | undefined;
}

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
export function refusalHeaders(meter: Meter, requestId: string, refusal: Refusal): Record<string, string> {
  const { failure, rateLimit } = refusal;
  return meteringHeaders(meter, {
    requestId,
    charged: 0,
    ...(rateLimit ? { rateLimit } : {}),
    ...(failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {}),
  });
}

/** The context function: credentials into context, or the refusal as Apollo's HTTP error. */
export function createContext(meter: Meter, core: CoreClient, headers: HeaderBag): GraphqlContext {
  const requestId = requestIdFrom(headers);
  const credentials = meter.readCredentials(headers, 'graphql');
  if (!credentials.ok) {
    const d = credentials.denial;
    const failure = singleFailure(d.httpStatus, d.reason, d.message, undefined, d.retryAfterSeconds);
    const http = { status: failure.status, headers: new HeaderMap(Object.entries(refusalHeaders(meter, requestId, { failure }))) };
    throw new GraphQLError(d.message, { extensions: { code: failure.status, http } });
  }
  const runs: GraphqlContext['runs'] = new Map();
  return {
    requestId,
    headers,
    key: credentials.key,
    runs,
    run(call) {
      let run = runs.get(call);
      if (!run) {
        run = executeOperation(core, call.operation, call.request, { requestId, style: 'graphql' });
        runs.set(call, run);
      }
      return run;
    },
  };
}
