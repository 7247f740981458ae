/**
 * The Jobs page's API, under the console's own prefix and for the signed-in account, through the
 * JobApi the composition passes in: the account's jobs (`GET /api/jobs`), a create from the page's
 * form (`POST /api/jobs`), a cancel (`DELETE /api/jobs/:id`) and the results download
 * (`GET /api/jobs/:id/results?format=ndjson|csv`), streamed as the REST route streams it: the page
 * links to it, and the session cookie is the credential (the console has no API key).
 */
import { Router, type Response } from 'express';
import { BATCH_REGISTRY } from '@retail/gateway-shared/batch-registry';
import { CancelJobRequestSchema, DomainSchema, ListJobsRequestSchema, wireEnumValues } from '@retail/contract';
import type { ConsoleContext } from './context.js';
import { createRequireAccount } from './account-routes.js';
import { ConsoleError, ValidationError, badRequest } from './errors.js';
import type { CreateJobBody, JobApi } from './job-api.js';
import type { PageQuery } from './watch-api.js';
import { parseId, parseQuery } from './watch-input.js';

const IDENTIFIERS = ['asin', 'gtin', 'url'] as const;
const OPERATIONS = BATCH_REGISTRY.items.map((item) => item.name);
const MAX_LABEL = 200;

/** What the create form offers: the operations a job item may run, the marketplaces, the identifier kinds. */
const FORM_OPTIONS = { operations: OPERATIONS, domains: wireEnumValues(DomainSchema), identifiers: IDENTIFIERS };

function createBody(body: unknown): CreateJobBody {
  const given = (body ?? {}) as Record<string, unknown>;
  const problems = [];
  const operation = given.operation;
  if (typeof operation !== 'string' || !OPERATIONS.includes(operation)) problems.push({ path: ['operation'], message: `Choose one of ${OPERATIONS.join(', ')}` });
  const identifier = given.identifier;
  if (typeof identifier !== 'string' || !(IDENTIFIERS as readonly string[]).includes(identifier)) problems.push({ path: ['identifier'], message: `Choose one of ${IDENTIFIERS.join(', ')}` });
  const text = given.identifiers;
  const identifiers = typeof text === 'string' ? text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '') : [];
  if (identifiers.length === 0) problems.push({ path: ['identifiers'], message: 'Give at least one identifier, one per line' });
  const domain = given.domain;
  if (domain !== undefined && domain !== '' && (typeof domain !== 'string' || !FORM_OPTIONS.domains.includes(domain))) problems.push({ path: ['domain'], message: 'Choose a marketplace' });
  const label = typeof given.label === 'string' ? given.label.trim() : '';
  if (label.length > MAX_LABEL) problems.push({ path: ['label'], message: `A label has at most ${MAX_LABEL} characters` });
  if (problems.length > 0) throw new ValidationError(problems);
  return { operation: operation as string, identifier: identifier as string, identifiers, ...(domain ? { domain: domain as string } : {}), ...(label ? { label } : {}) };
}

export function createJobRoutes(ctx: ConsoleContext, jobs: JobApi): Router {
  const router = Router();
  const requireAccount = createRequireAccount(ctx);
  const account = (res: Response) => res.locals.accountId as string;
  const jobId = (value: unknown) => parseId(CancelJobRequestSchema, 'id', String(value ?? ''));

  router.get('/jobs/options', requireAccount, (_req, res) => {
    res.json({ data: FORM_OPTIONS });
  });

  router.get('/jobs', requireAccount, async (req, res) => {
    res.json({ data: await jobs.listJobs(account(res), parseQuery<PageQuery>(ListJobsRequestSchema, req.query)) });
  });

  router.post('/jobs', requireAccount, async (req, res) => {
    res.status(202).json({ data: await jobs.createJob(account(res), createBody(req.body)) });
  });

  router.delete('/jobs/:id', requireAccount, async (req, res) => {
    res.json({ data: await jobs.cancelJob(account(res), jobId(req.params.id)) });
  });

  router.get('/jobs/:id/results', requireAccount, async (req, res) => {
    const id = jobId(req.params.id);
    const format = req.query.format ?? 'ndjson';
    if (format !== 'ndjson' && format !== 'csv') throw badRequest('format must be ndjson or csv', ['format']);
    const controller = new AbortController();
    res.on('close', () => controller.abort());
    const download = await jobs.openResults(account(res), id, format, controller.signal);
    if (!download.ok) throw new ConsoleError(download.error.status, download.error.message, { cause: download.error.cause });
    res.status(200).set({ 'Content-Type': download.contentType, 'Content-Disposition': `attachment; filename="job-${id}.${format}"` });
    await download.writeTo(res);
  });

  return router;
}
