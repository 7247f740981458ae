/**
 * The admission of the job routes, all free calls: a valid key in scope and one token of the rate
 * limit; the hold (of nothing) is settled at once, so the answer carries `X-Units-Charged: 0`. A
 * refusal is answered here, in the envelope, and the route stops.
 */
import type { Request, Response } from 'express';
import { type CallResult, admitCall, meteringHeaders, refusalHeaders, requestIdFrom, settleHold } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';

export interface AdmittedJobCall {
  readonly requestId: string;
  readonly accountId: string;
  readonly headers: Record<string, string>;
}

/** Admits a free call (`shapeErrors`: the request's own 400s, answered after the key, scope and rate limit); undefined once refused. */
export type AdmitFree = (req: Request, res: Response, shapeErrors?: { message: string; path: string[] }[]) => Promise<AdmittedJobCall | undefined>;

export function freeAdmission(meter: Meter, respond: (res: Response, result: CallResult) => void): AdmitFree {
  return async (req, res, shapeErrors = []) => {
    const requestId = requestIdFrom(req.headers);
    const admitted = await admitCall(meter, { headers: req.headers, iface: 'rest', operations: [], shapeErrors, requestId });
    if (!admitted.ok) {
      respond(res, { ...admitted.failure, headers: refusalHeaders(meter, requestId, admitted), unitsCharged: 0, requestId });
      return undefined;
    }
    const settled = await settleHold(meter, admitted.hold, []);
    const headers = meteringHeaders(meter, { requestId, rateLimit: admitted.rateLimit, charged: 0, remaining: settled.remaining });
    return { requestId, accountId: admitted.hold.accountId, headers };
  };
}
