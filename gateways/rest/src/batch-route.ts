/**
 * `POST /api/retail/batch`: the batch call on REST (docs/rest.md, Batch calls). The body is
 * `{"items": [{"operation", "params"}]}`; the whole call is admitted once (gateways/shared
 * batch-call.ts) and answers either one JSON document in item order (`data.retailBatch.items`,
 * the default) or, with `Accept: application/x-ndjson`, one NDJSON line per item as it completes.
 * NDJSON's headers leave before any item has run, so the charge travels in HTTP trailers (declared
 * in `Trailer`); the rule they repeat is documented: units charged = lines with status 200.
 */
import type { Request, RequestHandler, Response } from 'express';
import { type BatchAdmission, type BatchSettlement, type FailedBatchItem, NDJSON_TYPE, type PipelineDeps, admitBatch, batchEntry } from '@retail/gateway-shared';

/** The headers an NDJSON batch sends as trailers, once it has settled. */
export const BATCH_TRAILERS = ['X-Units-Charged', 'X-Units-Remaining'] as const;

/** A batch body may hold 100 items with URLs of up to 2,048 characters each. */
export const BATCH_BODY_LIMIT_BYTES = 256 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The client asks for NDJSON over JSON (plain `*\/*` or no Accept gets the JSON document). */
export function wantsNdjson(req: Request): boolean {
  return req.accepts(['application/json', NDJSON_TYPE]) === NDJSON_TYPE;
}

function streamLines(res: Response, admission: Extract<BatchAdmission, { ok: true }>, signal: AbortSignal): Promise<BatchSettlement> {
  // no-transform: neither the compression middleware nor a proxy may hold lines back to compress them.
  res.status(200).set(admission.headers).set({ 'Content-Type': `${NDJSON_TYPE}; charset=utf-8`, 'Cache-Control': 'no-store, no-transform', Trailer: BATCH_TRAILERS.join(', ') });
  res.flushHeaders();
  return admission.run((outcome) => void res.write(`${JSON.stringify(batchEntry(outcome))}\n`), signal);
}

export interface BatchRouteOptions {
  readonly deps: PipelineDeps;
  /** Answers a refusal in the envelope, as every other route does. */
  readonly refuse: (res: Response, result: Extract<BatchAdmission, { ok: false }>['result']) => void;
  /** Answers a body that is no JSON object (400, before the key is read, as for every body). */
  readonly refuseBody: (res: Response, message: string) => void;
  /** Reports a batch whose items failed for the service's own reasons (5xx), with their causes. */
  readonly report?: (requestId: string, failed: readonly FailedBatchItem[]) => void;
}

export function batchRoute(options: BatchRouteOptions): RequestHandler {
  return async (req, res) => {
    const body: unknown = req.body ?? {};
    if (!isObject(body)) return options.refuseBody(res, 'the request body must be a JSON object');
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const admission = await admitBatch(options.deps, { body, at: ['body'], style: 'rest', headers: req.headers });
    if (!admission.ok) return options.refuse(res, admission.result);
    let settled: BatchSettlement;
    if (wantsNdjson(req)) {
      settled = await streamLines(res, admission, controller.signal);
      res.addTrailers(Object.fromEntries(BATCH_TRAILERS.flatMap((name) => (settled.headers[name] !== undefined ? [[name, settled.headers[name]]] : []))));
      res.end();
    } else {
      settled = await admission.run(() => undefined, controller.signal);
      const items = [...settled.outcomes].sort((a, b) => a.index - b.index).map(batchEntry);
      res.status(200).set(settled.headers).set('Cache-Control', 'no-store').json({ data: { retailBatch: { items } } });
    }
    const failed = settled.outcomes.filter((o): o is FailedBatchItem => !o.ok && o.status >= 500);
    if (failed.length > 0) options.report?.(admission.requestId, failed);
  };
}
