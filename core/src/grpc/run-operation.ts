import { type DescMethod, type Message, create, isFieldSet } from '@bufbuild/protobuf';
import { DataIncidentSchema, ErrorReason, projectResponse } from '@retail/contract';
import { CoreError } from '../errors.js';
import type { Logger } from '../logger.js';
import { type HandlerTable, type RpcName, UNIMPLEMENTED } from '../operations/index.js';
import type { ParsedPageSource } from '../cache/parsed-pages.js';
import type { OperationContext } from '../operations/types.js';
import type { PageFetcher } from '../pages/types.js';
import type { ParsePool } from '../workers/pool.js';
import type { UpstreamMetrics } from '../outcomes/metrics.js';
import { outcomeClassOf } from '../resilience/outcome-class.js';
import { abortRejection } from './call-signal.js';
import { trackPages } from './page-tracker.js';
import type { IncidentKeeper } from '../health/incident-keeper.js';
import { incidentOver, trackKinds } from '../health/incident-marks.js';
import { kindsRead, refuseDuringIncident } from '../operations/incident-skip.js';
import type { FieldChoice } from '../operations/read-mask.js';

/** What running an operation needs from the server: handlers, pages, parse pool, logging. */
export interface OperationServices {
  readonly handlers: HandlerTable;
  readonly pages: PageFetcher;
  /** Cached parsed pages and the parse pool, handed to every handler (operations/parsed-pages.ts). */
  readonly parsedPages?: ParsedPageSource;
  readonly parsePool?: ParsePool;
  /** Where an unparseable page is counted (the fetch itself was counted as ok by the resilience layer). */
  readonly metrics?: Pick<UpstreamMetrics, 'outcome'>;
  readonly logger: Logger;
  /** Whether review-list fetches carry a marketplace session (REVIEWS_SESSION_COOKIE is configured). */
  readonly reviewsSession?: boolean;
  /** The data incidents (core/src/health): a response over pages of a kind under incident says so in its meta. */
  readonly incidents?: Pick<IncidentKeeper, 'record'>;
}

/** A validated request as the runner reads it: its marketplace, its lookup key's kind, what it asked of incidents. */
type RunnableRequest = Parameters<typeof refuseDuringIncident>[1] & FieldChoice;

/**
 * skipOnIncident decides from the kinds an operation declares it may read (operations/incident-skip.ts);
 * a handler that read another kind would let such a call through an incident, so it is logged.
 */
function warnOfUndeclaredKinds(rpc: RpcName, request: RunnableRequest, read: ReadonlySet<string>, logger: Logger): void {
  const declared = kindsRead(rpc, request);
  const undeclared = [...read].filter((kind) => !declared.includes(kind));
  if (undeclared.length > 0) logger.error({ rpc, undeclared }, 'operation read page kinds its OPERATION_PARSERS entry does not declare');
}

/** The call an operation runs in: its deadline and cancellation, its ids. */
export interface CallScope {
  readonly signal: AbortSignal;
  readonly deadlineAt: number;
  readonly logger: Logger;
  readonly requestId: string;
  /** 'background' for a bulk job's item: it waits at the host caps while interactive calls wait. */
  readonly priority?: 'background' | undefined;
  /** A read past the page cache (`x-retail-read: fresh`): its pages are fetched again. */
  readonly freshRead?: true | undefined;
}

/**
 * Runs one validated request through its handler (or UNIMPLEMENTED) and builds the response
 * message, `meta` filled from the pages the handler read. A handler that ignores its signal cannot
 * hold the call open: the call's abort rejects the run. Used by every unary call and every item of
 * a batch, so both answer exactly alike.
 */
export async function runOperation(rpc: RpcName, method: DescMethod, request: RunnableRequest, scope: CallScope, services: OperationServices): Promise<Message> {
  const handler = services.handlers[rpc];
  if (handler === UNIMPLEMENTED) throw new CoreError(ErrorReason.UNIMPLEMENTED, `${rpc} is not implemented yet`);
  // Before any page is read: a refusal the caller asked for costs no upstream read (and no unit).
  refuseDuringIncident(rpc, request, services.incidents);
  const aborted = abortRejection(scope.signal);
  try {
    const tracker = trackPages(services.pages);
    const kinds = services.parsedPages ? trackKinds(services.parsedPages) : undefined;
    const context: OperationContext = {
      marketplace: request.marketplace as OperationContext['marketplace'],
      signal: scope.signal,
      deadlineAt: scope.deadlineAt,
      pages: tracker.pages,
      ...(kinds ? { parsedPages: kinds.source } : {}),
      ...(services.parsePool ? { parsePool: services.parsePool } : {}),
      logger: scope.logger,
      requestId: scope.requestId,
      ...(scope.priority ? { priority: scope.priority } : {}),
      ...(scope.freshRead ? { freshRead: true } : {}),
      ...(services.reviewsSession ? { reviewsSession: true } : {}),
    };
    const init = await Promise.race([(handler as (r: unknown, c: OperationContext) => Promise<unknown>)(request, context), aborted.promise]);
    const response = create(method.output, init as never) as Message;
    const metaField = method.output.field.meta;
    const meta = tracker.meta();
    if (metaField && meta && !isFieldSet(response, metaField)) {
      (response as unknown as Record<string, unknown>).meta = create(metaField.message!, meta as never);
    }
    if (kinds) warnOfUndeclaredKinds(rpc, request, kinds.kinds(), scope.logger);
    const incident = metaField && kinds && services.incidents ? incidentOver(services.incidents, context.marketplace.code, kinds.kinds()) : undefined;
    if (metaField && incident) {
      const fields = response as unknown as Record<string, { dataIncident?: unknown } | undefined>;
      fields.meta ??= create(metaField.message!, {}) as never;
      fields.meta.dataIncident = create(DataIncidentSchema, incident);
    }
    // The request's read_mask (operations/read-mask.ts): only the fields it chose leave the core.
    return request.selection ? projectResponse(method.output, response, request.selection) : response;
  } finally {
    aborted.dispose();
  }
}

function describeCause(cause: unknown): string | undefined {
  return cause instanceof Error ? cause.message : cause === undefined ? undefined : String(cause);
}

/**
 * Counts an unparseable page against its host and logs a failed run: a fault of the service as an
 * error with its private cause, anything else (a refusal the client caused, the marketplace's answer)
 * as info.
 */
export function noteFailure(error: CoreError, thrown: unknown, parts: { host: string | undefined; ms: number; logger: Logger; services: OperationServices }): void {
  const { host, ms, logger, services } = parts;
  if (host && outcomeClassOf(error) === 'unparseable') services.metrics?.outcome(host, 'unparseable');
  if (error.reason === ErrorReason.INTERNAL || error.reason === ErrorReason.UNSPECIFIED) {
    logger.error({ ms, reason: ErrorReason[error.reason], err: error.cause ?? thrown }, 'call failed');
  } else {
    logger.info({ ms, reason: ErrorReason[error.reason], fieldPath: error.fieldPath, cause: describeCause(error.cause) }, 'call refused');
  }
}
