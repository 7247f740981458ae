/**
 * The REST routes of bulk jobs beyond the registry's (docs/jobs.md, REST):
 * - `POST /api/retail/jobs`: the create (job-create-route.ts);
 * - `GET /api/retail/jobs/{id}/results`: the results streamed as NDJSON (each line a batch entry)
 *   or, with `?format=csv`, CSV; `?cursor=<index>` resumes after an item, `?follow=true` waits for
 *   the results of a running job until it ends;
 * - `GET /api/retail/jobs/{id}/events`: Server-Sent Events of its progress.
 * All three are free calls (job-admission.ts): a valid key in scope and one token of the rate limit,
 * nothing held, `X-Units-Charged: 0`, refusals in the envelope (401, 403, 429; 404 for another
 * account's job).
 */
import express, { type Request, type Response } from 'express';
import { type CallResult, type CoreClient, openJobDownload, parseParameters, restSourceOf, serveJobProgress } from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import { freeAdmission } from './job-admission.js';
import { jobCreateHandler } from './job-create-route.js';
import { GET_JOB, JOB_EVENTS_PATH, JOB_RESULTS_PATH, JOBS_PATH } from './job-paths.js';
import { fromClientError, queryOf, resultsQueryErrors } from './job-request.js';

export interface JobRoutesOptions {
  readonly core: CoreClient;
  readonly meter: Meter;
  /** Answers a refusal or failure in the envelope, as every other route does (and logs a 5xx). */
  readonly respond: (res: Response, result: CallResult) => void;
}

export function createJobRoutes(options: JobRoutesOptions): express.Router {
  const { core, meter, respond } = options;
  const router = express.Router();
  const admitFree = freeAdmission(meter, respond);

  /** The `{id}` of a job route, checked as GetJob checks it (`["path", "id"]`). */
  const idErrors = (req: Request) => {
    const parsed = parseParameters(GET_JOB, { id: req.params.id }, 'rest', restSourceOf(GET_JOB));
    return parsed.ok ? [] : parsed.errors;
  };

  router.post(JOBS_PATH, jobCreateHandler({ core, admitFree, respond }));

  router.get(JOB_RESULTS_PATH.replace('{id}', ':id'), async (req, res) => {
    const query = queryOf(req, ['format', 'cursor', 'follow']);
    const shape = [...idErrors(req), ...(query.ok ? resultsQueryErrors(query.values) : [{ message: query.message, path: query.path }])];
    const admitted = await admitFree(req, res, shape);
    if (!admitted || !query.ok) return undefined;
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const format = query.values.format === 'csv' ? 'csv' : 'ndjson';
    const download = await openJobDownload(core, {
      id: req.params.id as string, accountId: admitted.accountId, requestId: admitted.requestId, format, style: 'rest', signal: controller.signal,
      ...(query.values.cursor !== undefined && { cursor: query.values.cursor }), follow: query.values.follow === 'true',
    });
    if (!download.ok) return respond(res, fromClientError(admitted.requestId, admitted.headers, download.error));
    const filename = `job-${String(req.params.id)}.${format === 'csv' ? 'csv' : 'ndjson'}`;
    res.status(200).set(admitted.headers).set({ 'Content-Type': download.contentType, 'Cache-Control': 'no-store', 'Content-Disposition': `attachment; filename="${filename}"` });
    await download.writeTo(res);
  });

  router.get(JOB_EVENTS_PATH.replace('{id}', ':id'), async (req, res) => {
    const query = queryOf(req, []);
    const shape = [...idErrors(req), ...(query.ok ? [] : [{ message: query.message, path: query.path }])];
    const admitted = await admitFree(req, res, shape);
    if (!admitted) return undefined;
    const lastEventId = req.headers['last-event-id'];
    await serveJobProgress(core, req, res, {
      id: req.params.id as string, accountId: admitted.accountId, requestId: admitted.requestId, style: 'rest', headers: admitted.headers,
      ...(typeof lastEventId === 'string' && { lastEventId }),
    }, (error) => respond(res, fromClientError(admitted.requestId, admitted.headers, error)));
  });

  return router;
}
