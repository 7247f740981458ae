/**
 * Settlement, in Apollo's `willSendResponse`: an executed request is charged only for its metered
 * calls that succeeded (the rest of the hold is released; free calls never charge) and carries the metering headers and
 * `extensions`; a refused one answers its HTTP status with the envelope. When Apollo refused the
 * document itself (syntax, validation, persisted query), a bad key still answers 401 first.
 */
import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import { ErrorReason } from '@retail/contract';
import { type EnvelopeError, type Refusal, type Settlement, admitFree, chargedOperations, failure, refusalHeaders, servedHeaders, settleHold, unitsReport, worstIncident } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import type { CallResult, GraphqlContext } from './context.js';

/** Charges the successful calls once, whichever comes first: the response or the client's disconnect. */
export async function settleRequest(meter: Meter, ctx: GraphqlContext): Promise<{ settled: Settlement; results: CallResult[] }> {
  const results = await Promise.all(ctx.runs.values());
  const hold = ctx.state.admission?.hold;
  if (ctx.state.settled || !hold) return { settled: { charged: 0 }, results };
  ctx.state.settled = true;
  const succeeded = [...ctx.runs.keys()].filter((_, i) => results[i]?.ok).flatMap((c) => chargedOperations(c.operation));
  return { settled: await settleHold(meter, hold, succeeded), results };
}

/** Apollo answered without running anything: the key first, then Apollo's (formatted) errors. */
async function documentRefusal(meter: Meter, ctx: GraphqlContext, response: GraphQLResponse): Promise<Refusal> {
  const key = await admitFree(meter, ctx.key, 'graphql');
  if (!key.ok) return key;
  const errors = (response.body.kind === 'single' ? (response.body.singleResult.errors ?? []) : []) as EnvelopeError[];
  return { failure: failure(errors[0]?.code ?? 500, ErrorReason.INVALID_ARGUMENT, errors), rateLimit: key.rateLimit };
}

export function settlementPlugin(meter: Meter): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue: ctx, response }) {
          if (!ctx.state.admission) ctx.state.refusal ??= await documentRefusal(meter, ctx, response);
          const setHeaders = (headers: Record<string, string>) => Object.entries(headers).forEach(([name, value]) => response.http.headers.set(name, value));
          if (ctx.state.refusal) {
            setHeaders(refusalHeaders(meter, ctx.requestId, ctx.state.refusal));
            response.http.status = ctx.state.refusal.failure.status;
            response.body = { kind: 'single', singleResult: { errors: ctx.state.refusal.failure.errors } };
            return;
          }
          const { settled, results } = await settleRequest(meter, ctx);
          setHeaders(servedHeaders(meter, { requestId: ctx.requestId, rateLimit: ctx.state.admission?.rateLimit, settled, results }));
          const dataIncident = worstIncident(results.flatMap((r) => (r.ok ? [r.meta] : [])));
          if (response.body.kind === 'single') {
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, ...unitsReport(settled), requestId: ctx.requestId, ...(dataIncident && { dataIncident }) };
          }
        },
      };
    },
  };
}
