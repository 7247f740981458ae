/**
 * The JobApi over the gateways' backend client, as client-watch-api.ts is for watches: each call the
 * JobService operation of the same name for the session's account (`x-retail-account`), its answer
 * the REST `data`, a failure the client-facing error. The create form's lines become batch items
 * through the same item translation as every job body (gateway-shared job-items.ts), so a bad line is
 * that item's 400 result. Managing jobs is free; their items are charged as they run.
 */
import { randomUUID } from 'node:crypto';
import { JobService } from '@retail/contract';
import type { CoreClient } from '@retail/gateway-shared/core-client';
import { createJobItems, MAX_JOB_ITEMS } from '@retail/gateway-shared/job-items';
import { openJobDownload } from '@retail/gateway-shared/job-download';
import { parseParameters } from '@retail/gateway-shared/parameters';
import { executeOperation } from '@retail/gateway-shared/pipeline';
import { registryOperation } from '@retail/gateway-shared/registry';
import { ConsoleError, ValidationError } from './errors.js';
import type { JobApi } from './job-api.js';
import type { WireData } from './watch-api.js';

export interface ClientJobApiOptions {
  /** The client with a WATCHER_ADDRESS (without one, every call answers 501). */
  readonly client: CoreClient;
}

export function createClientJobApi({ client }: ClientJobApiOptions): JobApi {
  const call = async (accountId: string, name: string, input: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<WireData> => {
    const op = registryOperation(name);
    const parsed = parseParameters(op, input, 'mcp');
    if (!parsed.ok) throw new ValidationError(parsed.errors.map((error) => ({ path: error.path, message: error.message })));
    const result = await executeOperation(client, op, { ...parsed.request, ...extra }, { requestId: randomUUID(), style: 'mcp', accountId });
    if (result.ok) return result.data;
    const [first] = result.errors;
    throw new ConsoleError(result.status, first?.message ?? 'The job service refused the request', { ...(first?.path ? { path: first.path } : {}), cause: result.cause });
  };
  return {
    listJobs: (account, query) => call(account, JobService.method.listJobs.name, { ...query }),
    cancelJob: (account, id) => call(account, JobService.method.cancelJob.name, { id }),
    async createJob(account, body) {
      if (body.identifiers.length === 0 || body.identifiers.length > MAX_JOB_ITEMS) {
        throw new ValidationError([{ path: ['identifiers'], message: `Give 1 to ${MAX_JOB_ITEMS.toLocaleString('en-US')} identifiers, one per line` }]);
      }
      const items = createJobItems();
      for (const value of body.identifiers) {
        items.add({ operation: body.operation, params: { [body.identifier]: value, ...(body.domain ? { domain: body.domain } : {}) } }, { style: 'mcp' });
      }
      return call(account, JobService.method.createJob.name, body.label ? { label: body.label } : {}, items.request());
    },
    openResults: (accountId, id, format, signal) => openJobDownload(client, { id, accountId, requestId: randomUUID(), format, style: 'mcp', signal }),
  };
}
