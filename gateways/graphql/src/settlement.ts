/**
 * Settlement, in Apollo's `willSendResponse`: an executed request is charged only for its calls
 * that succeeded (the rest of the hold is released) and carries the metering headers and
 * `extensions`; a refused one answers its HTTP status with the envelope. When Apollo refused the
 * document itself (syntax, validation, persisted query), a bad key still answers 401 first.
 */
import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import { ErrorReason } from '@retail/contract';
import { type EnvelopeError, type ResponseInfo, failure, meteringHeaders } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import { authenticateKey } from './admission.js';
import { type GraphqlContext, type Refusal, refusalHeaders } from './context.js';

/** Several calls' X-Cache: MISS if any went upstream, STALE if any was stale, HIT only if all hit; the oldest retrieval. */
function combinedResponseInfo(infos: readonly ResponseInfo[]): ResponseInfo {
  const caches = infos.map((i) => i.cache);
  const cache = infos.length === 0 || caches.includes(undefined) ? undefined : caches.includes('MISS') ? 'MISS' : caches.includes('STALE') ? 'STALE' : 'HIT';
  const oldest = infos.flatMap((i) => (i.retrievedAt ? [i.retrievedAt] : [])).sort()[0];
  return { ...(cache ? { cache } : {}), ...(oldest ? { retrievedAt: oldest } : {}) };
}

/** Charges the successful calls once, whichever comes first: the response or the client's disconnect. */
export async function settleHold(meter: Meter, ctx: GraphqlContext) {
  const results = await Promise.all(ctx.runs.values());
  const hold = ctx.admission?.hold;
  if (ctx.settled || !hold) return { charged: 0, results };
  ctx.settled = true;
  const succeeded = [...ctx.runs.keys()].filter((_, i) => results[i]?.ok).map((c) => c.operation.name);
  const settled = await meter.settle(hold, succeeded.length, succeeded).catch(() => ({ charged: 0, remaining: undefined }));
  return { charged: settled.charged, remaining: settled.remaining, results };
}

/** Apollo answered without running anything: the key first, then Apollo's (formatted) errors. */
async function documentRefusal(meter: Meter, ctx: GraphqlContext, response: GraphQLResponse): Promise<Refusal> {
  const key = await authenticateKey(meter, ctx);
  if ('failure' in key) return key;
  const errors = (response.body.kind === 'single' ? (response.body.singleResult.errors ?? []) : []) as EnvelopeError[];
  return { failure: failure(errors[0]?.code ?? 500, ErrorReason.INVALID_ARGUMENT, errors), rateLimit: key.rateLimit };
}

export function settlementPlugin(meter: Meter): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue: ctx, response }) {
          if (!ctx.admission) ctx.refusal ??= await documentRefusal(meter, ctx, response);
          const setHeaders = (headers: Record<string, string>) => Object.entries(headers).forEach(([name, value]) => response.http.headers.set(name, value));
          if (ctx.refusal) {
            setHeaders(refusalHeaders(meter, ctx.requestId, ctx.refusal));
            response.http.status = ctx.refusal.failure.status;
            response.body = { kind: 'single', singleResult: { errors: ctx.refusal.failure.errors } };
            return;
          }
          const { charged, remaining, results } = await settleHold(meter, ctx);
          // A failed call that asks to wait (a blocked marketplace's 503) sets Retry-After: the longest wait.
          const waits = results.flatMap((r) => (!r.ok && (r.status === 503 || r.status === 429) && r.retryAfterSeconds !== undefined ? [r.retryAfterSeconds] : []));
          const { rateLimit } = ctx.admission ?? {};
          const meta = combinedResponseInfo(results.flatMap((r) => (r.ok ? [r.meta] : [])));
          const units = { unitsCharged: charged, ...(remaining !== undefined && Number.isFinite(remaining) ? { unitsRemaining: remaining } : {}) };
          setHeaders(meteringHeaders(meter, { requestId: ctx.requestId, charged, meta, ...(rateLimit ? { rateLimit } : {}), ...(remaining !== undefined ? { remaining } : {}), ...(waits.length > 0 ? { retryAfterSeconds: Math.max(...waits) } : {}) }));
          if (response.body.kind === 'single') response.body.singleResult.extensions = { ...response.body.singleResult.extensions, ...units, requestId: ctx.requestId };
        },
      };
    },
  };
}
