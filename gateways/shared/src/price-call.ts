/**
 * A dry run (`dryRun: true`): what a call would charge, answered without running it. It is admitted
 * as a free call is (credentials, scope, the rate limit, then the parameters' shape: a call that
 * would be refused says so, with the same error), holds and charges nothing, and never reaches the
 * core or the marketplace. The units are the operation's price (chargedOperations); whether the
 * balance covers them is said beside it, since a dry run never answers 402.
 */
import type { HeaderBag } from '@retail/metering/api';
import type { CallFailure } from './call-results.js';
import type { ParameterError, ParameterStyle } from './parameters.js';
import { type PipelineDeps, admitCall, chargedOperations, parseCallParameters, refusalHeaders, requestIdFrom, servedHeaders, settleHold } from './pipeline.js';
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
  const argumentErrors = input.argumentErrors ?? [];
  const shapeErrors = [...argumentErrors, ...(own.ok ? [] : own.errors)];
  // Admitted with no operations: a free call's admit and settle, so it takes the rate limit's turn and holds
  // nothing; a shape error is refused there (400), after credentials, scope and the rate limit, as on a real call.
  const admitted = await admitCall(deps.meter, { headers: input.headers, iface: input.style, operations: [], shapeErrors, requestId });
  if (!admitted.ok) return { ...admitted.failure, headers: refusalHeaders(deps.meter, requestId, admitted), requestId };
  const settled = await settleHold(deps.meter, admitted.hold, []);
  const headers = servedHeaders(deps.meter, { requestId, rateLimit: admitted.rateLimit, settled, results: [] });
  const units = chargedOperations(input.op).length;
  const remaining = settled.remaining !== undefined && Number.isFinite(settled.remaining) ? settled.remaining : undefined;
  return { ok: true, units, ...(remaining !== undefined ? { unitsRemaining: remaining, affordable: remaining >= units } : {}), headers, requestId };
}
