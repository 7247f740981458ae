/**
 * A dry run (`dryRun: true`): what a call would charge, answered without running it. It is admitted
 * as a free call is (credentials, scope, the rate limit, then the parameters' shape: a call that
 * would be refused says so, with the same error), holds and charges nothing, and never reaches the
 * core or the marketplace. The units are the operation's price (chargedOperations); whether the
 * balance covers them is said beside it, since a dry run never answers 402.
 */
import type { HeaderBag, Meter } from '@retail/metering/api';
import type { BatchCallInput } from './batch-call.js';
import { readBatchBody } from './batch-items.js';
import type { CallFailure } from './call-results.js';
import type { ParameterError, ParameterStyle } from './parameters.js';
import { type AdmitOutcome, type PipelineDeps, admitCall, chargedOperations, parseCallParameters, refusalHeaders, requestIdFrom, servedHeaders, settleHold } from './pipeline.js';
import type { Operation } from './registry.js';

export interface PriceInput {
  readonly op: Operation;
  readonly params: Record<string, unknown>;
  readonly style: ParameterStyle;
  readonly headers: HeaderBag;
  /** Errors of arguments the interface took out of `params` itself. */
  readonly argumentErrors?: readonly ParameterError[];
}

export type PriceResult = (
  | { readonly ok: true; readonly units: number; readonly affordable?: boolean }
  | CallFailure
) & { readonly headers: Record<string, string>; readonly unitsRemaining?: number; readonly requestId: string };

export async function priceCall(deps: Pick<PipelineDeps, 'meter'>, input: PriceInput): Promise<PriceResult> {
  const requestId = requestIdFrom(input.headers);
  const own = parseCallParameters(input.op, input.params, input.style);
  const shapeErrors = [...(input.argumentErrors ?? []), ...(own.ok ? [] : own.errors)];
  // Admitted with no operations: a free call's admit and settle, so it takes the rate limit's turn and holds
  // nothing; a shape error is refused there (400), after credentials, scope and the rate limit, as on a real call.
  const admitted = await admitCall(deps.meter, { headers: input.headers, iface: input.style, operations: [], shapeErrors, requestId });
  return priced(deps.meter, admitted, chargedOperations(input.op).length, requestId);
}

/**
 * A batch's price: one unit per well-formed item that would be charged, as admitBatch holds; a body
 * that is no batch is refused as the real call would be. Counted once against the rate limit, as a free call.
 */
export async function priceBatch(deps: Pick<PipelineDeps, 'meter'>, input: BatchCallInput & Pick<PriceInput, 'argumentErrors'>): Promise<PriceResult> {
  const requestId = requestIdFrom(input.headers);
  const read = readBatchBody(input.body, input.at, input.style, input.maxItems);
  const units = read.ok ? read.items.flatMap((item) => (item.ok ? chargedOperations(item.item.op) : [])).length : 0;
  const shapeErrors = [...(input.argumentErrors ?? []), ...(read.ok ? [] : read.errors)];
  const admitted = await admitCall(deps.meter, { headers: input.headers, iface: input.style, operations: [], shapeErrors, requestId });
  return priced(deps.meter, admitted, units, requestId);
}

/** A free admission settled at once, answered with the units the real call would charge. */
async function priced(meter: Meter, admitted: AdmitOutcome, units: number, requestId: string): Promise<PriceResult> {
  if (!admitted.ok) return { ...admitted.failure, headers: refusalHeaders(meter, requestId, admitted), requestId };
  const settled = await settleHold(meter, admitted.hold, []);
  const headers = servedHeaders(meter, { requestId, rateLimit: admitted.rateLimit, settled, results: [] });
  const remaining = settled.remaining !== undefined && Number.isFinite(settled.remaining) ? settled.remaining : undefined;
  return { ok: true, units, ...(remaining !== undefined ? { unitsRemaining: remaining, affordable: remaining >= units } : {}), headers, requestId };
}
