/**
 * Settlement, in Apollo's `willSendResponse`: an executed request is charged only for the calls
 * that succeeded (the rest of the hold is released) and carries the metering headers and
 * `extensions`; a refused one answers its HTTP status with the envelope. A document Apollo
 * refused (syntax, validation, persisted query) checks the key first: a bad key answers 401.
 * The hold is also settled when the client disconnects (`settleHold` on the response's close).
 */
import type { ApolloServerPlugin, GraphQLResponse } from '@apollo/server';
import { ErrorReason } from '@retail/contract';
import { type EnvelopeError, failure, meteringHeaders, type ResponseInfo } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import { authenticateKey } from './admission.js';
import { type GraphqlContext, type Refusal, refusalHeaders } from './context.js';

/**
 * One request may make several core calls; X-Cache and X-Retrieved-At describe them together:
 * MISS when any call went upstream, STALE when any answer was stale, HIT only when all were hits,
 * and the oldest retrieval time.
 */
export function combinedResponseInfo(infos: readonly ResponseInfo[]): ResponseInfo {
  if (infos.length === 0) return {};
  const caches = infos.map((i) => i.cache);
  const cache = caches.includes(undefined) ? undefined : caches.includes('MISS') ? 'MISS' : caches.includes('STALE') ? 'STALE' : 'HIT';
  const times = infos.flatMap((i) => (i.retrievedAt ? [i.retrievedAt] : [])).sort();
  return { ...(cache ? { cache } : {}), ...(times[0] ? { retrievedAt: times[0] } : {}) };
}

/** Charges the successful calls once (whichever of response and disconnect comes first). */
export async function settleHold(meter: Meter, ctx: GraphqlContext) {
  const results = await Promise.all(ctx.runs.values());
  const hold = ctx.admission?.hold;
  if (ctx.settled || !hold) return { charged: 0, results };
  ctx.settled = true;
  const succeeded = [...ctx.runs.keys()].filter((_, i) => results[i]?.ok).map((c) => c.operation.name);
  const settled = await meter.settle(hold, succeeded.length, succeeded).catch(() => ({ charged: 0, remaining: undefined }));
  return { charged: settled.charged, remaining: settled.remaining, results };
}

/** Apollo answered without running anything: the key first, then its errors as a 400. */
async function documentRefusal(meter: Meter, ctx: GraphqlContext, response: GraphQLResponse): Promise<Refusal> {
  const key = await authenticateKey(meter, ctx);
  if ('failure' in key) return key;
  const formatted = response.body.kind === 'single' ? (response.body.singleResult.errors ?? []) : [];
  const errors = formatted.map((e) => ({ ...e, code: (e as Partial<EnvelopeError>).code ?? 500 }) as EnvelopeError);
  return { failure: failure(errors[0]?.code ?? 500, ErrorReason.INVALID_ARGUMENT, errors), rateLimit: key.rateLimit };
}

export function settlementPlugin(meter: Meter): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue: ctx, response }) {
          if (!ctx.admission) ctx.refusal ??= await documentRefusal(meter, ctx, response);
          const set = (headers: Record<string, string>) => Object.entries(headers).forEach(([name, value]) => response.http.headers.set(name, value));
          if (ctx.refusal) {
            set(refusalHeaders(meter, ctx.requestId, ctx.refusal));
            response.http.status = ctx.refusal.failure.status;
            response.body = { kind: 'single', singleResult: { errors: ctx.refusal.failure.errors } };
            return;
          }
          const { charged, remaining, results } = await settleHold(meter, ctx);
          // A failed call that asks to wait (a blocked marketplace's 503): the longest wait.
          const waits = results.flatMap((r) => (!r.ok && (r.status === 503 || r.status === 429) && r.retryAfterSeconds !== undefined ? [r.retryAfterSeconds] : []));
          const rateLimit = ctx.admission?.rateLimit;
          set(
            meteringHeaders(meter, {
              requestId: ctx.requestId,
              charged,
              ...(rateLimit ? { rateLimit } : {}),
              ...(remaining !== undefined ? { remaining } : {}),
              ...(waits.length > 0 ? { retryAfterSeconds: Math.max(...waits) } : {}),
              meta: combinedResponseInfo(results.flatMap((r) => (r.ok ? [r.meta] : []))),
            }),
          );
          if (response.body.kind === 'single') {
            const units = { unitsCharged: charged, ...(remaining !== undefined && Number.isFinite(remaining) ? { unitsRemaining: remaining } : {}) };
            response.body.singleResult.extensions = { ...response.body.singleResult.extensions, ...units, requestId: ctx.requestId };
          }
        },
      };
    },
  };
}
