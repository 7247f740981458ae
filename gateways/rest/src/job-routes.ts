/**
 * The REST routes of bulk jobs beyond the registry's (docs/jobs.md, REST):
 * - `POST /api/retail/jobs`: items as JSON, NDJSON or CSV (job-body.ts), up to 100,000, answered
 *   `202 Accepted` with `data.retailJob` and `Location: /api/retail/jobs/{id}`;
 * - `GET /api/retail/jobs/{id}/results`: the results streamed as NDJSON (each line a batch entry)
 *   or, with `?format=csv`, CSV; `?cursor=<index>` resumes after an item, `?follow=true` waits for
 *   the results of a running job until it ends;
 * - `GET /api/retail/jobs/{id}/events`: Server-Sent Events of its progress.
 * All three are free calls: a valid key in scope and one token of the rate limit, nothing held,
 * `X-Units-Charged: 0`, refusals in the envelope (401, 403, 429; 404 for another account's job).
 */
import express, { type Request, type Response } from 'express';
import { ErrorReason, JobService } from '@retail/contract';
import {
  type CallResult, type ClientError, type CoreClient, NDJSON_TYPE, CSV_TYPE, admitCall, mapCoreError, meteringHeaders, openJobDownload, parseParameters,
  refusalHeaders, registryOperation, renderResponseData, requestIdFrom, restSourceOf, serveJobProgress, settleHold,
} from '@retail/gateway-shared';
import type { Meter } from '@retail/metering/api';
import { type JobBodyFormat, readJobBody } from './job-body.js';
import { readQuery } from './query.js';

const CREATE_JOB = registryOperation(JobService.method.createJob.name);
const GET_JOB = registryOperation(JobService.method.getJob.name);

export const JOBS_PATH = CREATE_JOB.restPath;
export const JOB_RESULTS_PATH = `${GET_JOB.restPath}/results`;
export const JOB_EVENTS_PATH = `${GET_JOB.restPath}/events`;

export interface JobRoutesOptions {
  readonly core: CoreClient;
  readonly meter: Meter;
  /** Answers a refusal or failure in the envelope, as every other route does (and logs a 5xx). */
  readonly respond: (res: Response, result: CallResult) => void;
}

/** The media types a create body may have, by what `type-is` matches. */
function bodyFormat(req: Request): JobBodyFormat | undefined {
  const kind = req.is(['application/json', '+json', NDJSON_TYPE, 'application/jsonl', CSV_TYPE]);
  if (kind === false || kind === null) return undefined;
  if (kind === CSV_TYPE) return 'csv';
  return kind === NDJSON_TYPE || kind === 'application/jsonl' ? 'ndjson' : 'json';
}

type QueryResult = { ok: true; values: Record<string, string> } | { ok: false; message: string; path: string[] };

/** The query parameters a route takes, each at most once; any other is a 400. */
function queryOf(req: Request, allowed: readonly string[]): QueryResult {
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(readQuery(req.originalUrl))) {
    if (!allowed.includes(name)) return { ok: false, message: allowed.length === 0 ? `${name}: this request takes its parameters from the body, not the query string` : `unknown parameter ${name}; this route takes ${allowed.join(', ')}`, path: ['query', name] };
    if (Array.isArray(value)) return { ok: false, message: `${name} must be given once`, path: ['query', name] };
    values[name] = value;
  }
  return { ok: true, values };
}

type Refused = Extract<CallResult, { ok: false }>;

const failed = (requestId: string, headers: Record<string, string>, status: number, message: string, path?: string[]): Refused => ({
  ok: false, status, reason: ErrorReason.INVALID_ARGUMENT, errors: [{ code: status, message, ...(path ? { path } : {}) }], headers: { ...headers, 'X-Request-Id': requestId }, unitsCharged: 0, requestId,
});

const fromClientError = (requestId: string, headers: Record<string, string>, error: ClientError): Refused => ({
  ...failed(requestId, headers, error.status, error.message, error.path),
  reason: error.reason,
  cause: error.cause,
  ...(error.retryAfterSeconds !== undefined && { retryAfterSeconds: error.retryAfterSeconds }),
});

export function createJobRoutes(options: JobRoutesOptions): express.Router {
  const { core, meter, respond } = options;
  const router = express.Router();

  /** Admits a free call: the key, its scope, one token of the rate limit; the hold (of nothing) is settled at once. */
  async function admitFree(req: Request, res: Response, shapeErrors: { message: string; path: string[] }[] = []) {
    const requestId = requestIdFrom(req.headers);
    const admitted = await admitCall(meter, { headers: req.headers, iface: 'rest', operations: [], shapeErrors, requestId });
    if (!admitted.ok) {
      respond(res, { ...admitted.failure, headers: refusalHeaders(meter, requestId, admitted), unitsCharged: 0, requestId });
      return undefined;
    }
    const settled = await settleHold(meter, admitted.hold, []);
    const headers = meteringHeaders(meter, { requestId, rateLimit: admitted.rateLimit, charged: 0, remaining: settled.remaining });
    return { requestId, accountId: admitted.hold.accountId, headers };
  }

  /** The `{id}` of a job route, checked as GetJob checks it (`["path", "id"]`). */
  const idErrors = (req: Request) => {
    const parsed = parseParameters(GET_JOB, { id: req.params.id }, 'rest', restSourceOf(GET_JOB));
    return parsed.ok ? [] : parsed.errors;
  };

  router.post(JOBS_PATH, async (req, res) => {
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
  });

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

/** `format` is ndjson or csv, `cursor` an item index, `follow` true or false. */
function resultsQueryErrors(values: Record<string, string>): { message: string; path: string[] }[] {
  const errors = [];
  if (values.format !== undefined && values.format !== 'ndjson' && values.format !== 'csv') errors.push({ message: 'format must be one of ndjson, csv', path: ['query', 'format'] });
  if (values.cursor !== undefined && !/^\d{1,9}$/.test(values.cursor)) errors.push({ message: 'cursor must be an item index (the index of the last line read)', path: ['query', 'cursor'] });
  if (values.follow !== undefined && values.follow !== 'true' && values.follow !== 'false') errors.push({ message: 'follow must be true or false', path: ['query', 'follow'] });
  return errors;
}
