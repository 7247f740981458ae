/**
 * `POST /api/retail/jobs`: items as JSON, NDJSON or CSV (job-body.ts), up to 100,000, answered
 * `202 Accepted` with `data.retailJob` and `Location: /api/retail/jobs/{id}`. label and webhook come
 * from the JSON body, or for NDJSON and CSV from the query string; a CSV may name every row's
 * operation with `?operation=`.
 */
import type { Request, Response } from 'express';
import { type CallResult, type CoreClient, mapCoreError, parseParameters, renderResponseData, requestIdFrom } from '@retail/gateway-shared';
import type { AdmitFree } from './job-admission.js';
import { readJobBody } from './job-body.js';
import { CREATE_JOB, JOBS_PATH } from './job-paths.js';
import { bodyFormat, failed, fromClientError, queryOf } from './job-request.js';

export interface JobCreateOptions {
  readonly core: CoreClient;
  readonly admitFree: AdmitFree;
  readonly respond: (res: Response, result: CallResult) => void;
}

export function jobCreateHandler({ core, admitFree, respond }: JobCreateOptions) {
  return async (req: Request, res: Response): Promise<void> => {
    const requestId = requestIdFrom(req.headers);
    const format = bodyFormat(req);
    if (!format) return respond(res, failed(requestId, {}, 415, 'the request body must be JSON (application/json), NDJSON (application/x-ndjson) or CSV (text/csv)', ['body']));
    const encoding = req.headers['content-encoding'];
    if (encoding !== undefined && encoding !== 'identity') return respond(res, failed(requestId, {}, 415, 'unsupported body encoding; send the body uncompressed', ['body']));
    const query = queryOf(req, format === 'json' ? [] : format === 'csv' ? ['operation', 'label', 'webhook'] : ['label', 'webhook']);
    if (!query.ok) return respond(res, failed(requestId, {}, 400, query.message, query.path));
    const admitted = await admitFree(req, res);
    if (!admitted) return undefined;
    const body = await readJobBody({ format, body: req, ...(query.values.operation !== undefined && { operation: query.values.operation }) });
    if (!body.ok) {
      // The rest of a refused body is not read: the connection closes after the answer.
      res.set('Connection', 'close');
      return respond(res, failed(admitted.requestId, admitted.headers, body.status, body.message, body.path));
    }
    // label and webhook: from the JSON body, or for NDJSON and CSV from the query (`?webhook=<url>`).
    const given = format === 'json' ? body.draft.params : { ...(query.values.label !== undefined && { label: query.values.label }), ...(query.values.webhook !== undefined && { webhook: { url: query.values.webhook } }) };
    const place = format === 'json' ? 'body' : 'query';
    const options = parseParameters(CREATE_JOB, given, 'rest', () => ({ text: false, path: [place] }));
    if (!options.ok) {
      const [first] = options.errors;
      // `?webhook=` is the URL itself: point at it rather than at a `url` field the client never wrote.
      const path = place === 'query' && first?.path[1] === 'webhook' ? ['query', 'webhook'] : first?.path;
      return respond(res, { ...failed(admitted.requestId, admitted.headers, 400, first?.message ?? 'invalid request', path), errors: options.errors.map((e) => ({ code: 400, message: e.message, path: place === 'query' && e.path[1] === 'webhook' ? ['query', 'webhook'] : e.path })) });
    }
    try {
      const { response } = await core.callOperation(CREATE_JOB, { ...options.request, items: body.draft.items, rejectedItems: body.draft.rejectedItems }, { requestId: admitted.requestId, accountId: admitted.accountId });
      const data = renderResponseData(CREATE_JOB.response, response, 'rest');
      const id = (data.retailJob as { id: string }).id;
      res.status(202).set(admitted.headers).set({ 'Cache-Control': 'no-store', Location: `${JOBS_PATH}/${id}` }).json({ data });
    } catch (error) {
      respond(res, fromClientError(admitted.requestId, admitted.headers, mapCoreError(error, CREATE_JOB, 'rest')));
    }
  };
}
