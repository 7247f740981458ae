/**
 * What the console needs from the job service (retail.v1.JobService, proto/retail/v1/jobs.proto) to
 * serve the Jobs page for the signed-in account, as watch-api.ts does for watches: the console has no
 * API key of the user's, so its server calls the service for the session's account. Outputs are the
 * REST `data` objects; downloads are streamed from the service (gateway-shared job-download.ts).
 */
import type { JobDownload, JobDownloadFormat } from '@retail/gateway-shared/job-download';
import type { PageQuery, WireData } from './watch-api.js';

/** The page's create form: one operation for every identifier (one per line). */
export interface CreateJobBody {
  /** An item operation as a batch names it (`product`, `product/offers`…). */
  readonly operation: string;
  /** Which parameter the identifiers are: `asin`, `gtin` or `url`. */
  readonly identifier: string;
  readonly identifiers: readonly string[];
  readonly domain?: string;
  readonly label?: string;
}

export interface JobApi {
  listJobs(accountId: string, query: PageQuery): Promise<WireData>;
  createJob(accountId: string, body: CreateJobBody): Promise<WireData>;
  cancelJob(accountId: string, id: string): Promise<WireData>;
  /** Opens a results download; another account's job is its error (404). */
  openResults(accountId: string, id: string, format: JobDownloadFormat, signal: AbortSignal): Promise<JobDownload>;
}
