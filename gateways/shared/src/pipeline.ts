/**
 * The metered call, shared by REST, GraphQL and MCP, in docs/contract.md's order: credentials (400
 * conflicting, 401) → scope (403) → rate limit (429) → parameter shape (400) → units (402) → core
 * → settle (one unit on success, none on any error) → response metadata headers.
 * The steps are exported one by one so GraphQL can hold several operations in one request.
 */
import { randomUUID } from 'node:crypto';
import { DATA_INCIDENT_HEADER, dataIncidentHeaderValue, ErrorReason, errorRow, retryAfterHeaderSeconds } from '@retail/contract';
import type { AdmittedRead, Denial, HeaderBag, Hold, Interface, Meter, RateLimitState } from '@retail/metering/api';
import type { CoreClient, DataIncidentInfo, ResponseInfo } from './core-client.js';
import { noteKeyId } from './access-log.js';
import { mapCoreError } from './errors.js';
import { parseCallArguments } from './job-arguments.js';
import { type ParameterError, type ParameterStyle, parseParameters, restSourceOf } from './parameters.js';
import type { Operation } from './registry.js';
import { renderResponseData } from './response-data.js';
import { type CallFailure, type CallSuccess, failure, singleFailure } from './call-results.js';

export * from './call-results.js';

export type CallResult = (CallSuccess | CallFailure) & {
  /** Response metadata headers (X-Request-Id, RateLimit*, X-Units-*, X-Cache, Retry-After…). */
  readonly headers: Record<string, string>;
  readonly unitsCharged: number;
  readonly unitsRemaining?: number;
  readonly requestId: string;
};

export interface PipelineDeps {
  readonly core: CoreClient;
  readonly meter: Meter;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is well-formed, otherwise a new one. */
export function requestIdFrom(headers: HeaderBag): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The meter's refusal (credentials, key, scope, rate limit, units) as a failure. */
export function denialFailure(d: Denial): CallFailure {
  return singleFailure(d.httpStatus, d.reason, d.message, undefined, d.retryAfterSeconds);
}

function parameterFailure(errors: ParameterError[]): CallFailure {
  return failure(400, ErrorReason.INVALID_ARGUMENT, errors.map((e) => ({ code: 400, message: e.message, path: e.path })));
}

const ledgerDown = (): CallFailure => {
  const row = errorRow(ErrorReason.LEDGER_UNAVAILABLE);
  return singleFailure(row.httpStatus, ErrorReason.LEDGER_UNAVAILABLE, row.defaultMessage, undefined, 1);
};

/** Headers every metered response carries. */
export function meteringHeaders(
  meter: Meter,
  parts: { requestId: string; rateLimit?: RateLimitState | undefined; charged?: number | undefined; remaining?: number | undefined; meta?: ResponseInfo | undefined; retryAfterSeconds?: number | undefined },
): Record<string, string> {
  const headers: Record<string, string> = { 'X-Request-Id': parts.requestId };
  if (parts.rateLimit) Object.assign(headers, meter.rateLimitHeaders(parts.rateLimit));
  if (parts.charged !== undefined) headers['X-Units-Charged'] = String(parts.charged);
  if (parts.remaining !== undefined && Number.isFinite(parts.remaining)) headers['X-Units-Remaining'] = String(parts.remaining);
  if (parts.meta?.cache) headers['X-Cache'] = parts.meta.cache;
  if (parts.meta?.retrievedAt) headers['X-Retrieved-At'] = parts.meta.retrievedAt;
  if (parts.meta?.dataIncident) headers[DATA_INCIDENT_HEADER] = dataIncidentHeaderValue(parts.meta.dataIncident.state, parts.meta.dataIncident.fields);
  if (parts.retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterHeaderSeconds(parts.retryAfterSeconds));
  return headers;
}

/** A request refused before any work: its failure, and the rate limit state when known. */
export interface Refusal {
  readonly failure: CallFailure;
  readonly rateLimit?: RateLimitState | undefined;
}

/** Headers of a refused request: nothing charged, the rate limit state and any wait. */
export function refusalHeaders(meter: Meter, requestId: string, { failure, rateLimit }: Refusal): Record<string, string> {
  return meteringHeaders(meter, { requestId, charged: 0, rateLimit, retryAfterSeconds: failure.retryAfterSeconds });
}

/** A free call (introspection, tools/list): a valid key in scope, nothing held. */
export async function admitFree(meter: Meter, key: string, iface: Interface): Promise<({ readonly ok: true } | { readonly ok: false; readonly failure: CallFailure }) & Pick<Refusal, 'rateLimit'>> {
  const auth = await meter.authenticate(key, iface);
  if (auth.ok) return { ok: true, rateLimit: auth.rateLimit };
  return { ok: false, failure: denialFailure(auth.denial), rateLimit: auth.denial.rateLimit };
}

export type ReadAdmission = ({ readonly ok: true; readonly read: AdmittedRead } | { readonly ok: false; readonly failure: CallFailure }) & Pick<Refusal, 'rateLimit'>;

/**
 * A free read of the key's own account (the usage history): key (401), scope (403) and one token of
 * the rate limit (429), as a lookup's admit, but no unit and nothing held (Meter.admitRead). The
 * read's parameter 400s answer after it, as admitCall's shape errors do.
 */
export async function admitRead(meter: Meter, input: { headers: HeaderBag; key: string; iface: Interface | '' }): Promise<ReadAdmission> {
  const admitted = await meter.admitRead(input.key, input.iface);
  if (!admitted.ok) return { ok: false, failure: denialFailure(admitted.denial), rateLimit: admitted.denial.rateLimit };
  noteKeyId(input.headers, admitted.keyId);
  return { ok: true, read: admitted, rateLimit: admitted.rateLimit };
}

export type AdmitOutcome =
  | { readonly ok: true; readonly hold: Hold; readonly rateLimit: RateLimitState }
  | ({ readonly ok: false } & Refusal);

/**
 * Credentials, scope, rate limit, shape and units for `operations`. `shapeErrors` are the
 * parameter errors the gateway found; they answer 400 only after scope and rate limit passed.
 */
export async function admitCall(
  meter: Meter,
  input: { headers: HeaderBag; iface: Interface; operations: readonly string[]; shapeErrors: ParameterError[]; requestId: string; rateCost?: number },
): Promise<AdmitOutcome> {
  const credentials = meter.readCredentials(input.headers, input.iface);
  if (!credentials.ok) return { ok: false, failure: denialFailure(credentials.denial) };
  let admitted;
  try {
    admitted = await meter.admit({
      key: credentials.key,
      interface: input.iface,
      operations: input.operations,
      shapeValid: input.shapeErrors.length === 0,
      requestId: input.requestId,
      ...(input.rateCost !== undefined ? { rateCost: input.rateCost } : {}),
    });
  } catch (err) {
    return { ok: false, failure: { ...ledgerDown(), cause: err } };
  }
  if (admitted.ok) {
    noteKeyId(input.headers, admitted.hold.keyId);
    return { ok: true, hold: admitted.hold, rateLimit: admitted.rateLimit };
  }
  if (admitted.shape === true) {
    const errors = input.shapeErrors.length > 0 ? input.shapeErrors : [{ message: 'invalid request', path: [] }];
    return { ok: false, failure: parameterFailure(errors), rateLimit: admitted.rateLimit };
  }
  return { ok: false, failure: denialFailure(admitted.denial), rateLimit: admitted.denial.rateLimit };
}

/** One backend call: data rendered by the contract's wire renderer, or the mapped failure. */
export async function executeOperation(
  core: CoreClient,
  op: Operation,
  request: Record<string, unknown>,
  options: { requestId: string; style: ParameterStyle; signal?: AbortSignal; accountId?: string },
): Promise<CallSuccess | CallFailure> {
  try {
    const { response, meta } = await core.callOperation(op, request, options);
    return { ok: true, status: 200, data: renderResponseData(op.response, response, options.style), meta };
  } catch (err) {
    const mapped = mapCoreError(err, op, options.style);
    return { ...singleFailure(mapped.status, mapped.reason, mapped.message, mapped.path, mapped.retryAfterSeconds), cause: mapped.cause };
  }
}

/** What a settle charged, and the balance after it when the ledger answered. */
export interface Settlement {
  readonly charged: number;
  readonly remaining?: number | undefined;
}

/** Settles a hold for the operations that succeeded; a ledger failure here never turns a served answer into an error. */
export async function settleHold(meter: Meter, hold: Hold, succeededOperations: readonly string[]): Promise<Settlement> {
  try {
    return await meter.settle(hold, succeededOperations.length, succeededOperations);
  } catch {
    return { charged: 0 };
  }
}

/** The units of a settled request as a response body reports them (`_meta`, `extensions`): a finite balance only. */
export function unitsReport({ charged, remaining }: Settlement): { unitsCharged: number; unitsRemaining?: number } {
  return { unitsCharged: charged, ...(remaining !== undefined && Number.isFinite(remaining) ? { unitsRemaining: remaining } : {}) };
}

/** The most severe data incident over several calls (major before degraded), if any. */
export function worstIncident(infos: readonly ResponseInfo[]): DataIncidentInfo | undefined {
  return infos.flatMap((i) => (i.dataIncident ? [i.dataIncident] : [])).sort((a, b) => (a.state === b.state ? 0 : a.state === 'major' ? -1 : 1))[0];
}

/** Several calls' X-Cache: MISS if any went upstream, STALE if any was stale, HIT only if all hit; the oldest retrieval; the worst data incident. */
export function combinedResponseInfo(infos: readonly ResponseInfo[]): ResponseInfo {
  const caches = infos.map((i) => i.cache);
  const cache = infos.length === 0 || caches.includes(undefined) ? undefined : caches.includes('MISS') ? 'MISS' : caches.includes('STALE') ? 'STALE' : 'HIT';
  const oldest = infos.flatMap((i) => (i.retrievedAt ? [i.retrievedAt] : [])).sort()[0];
  const dataIncident = worstIncident(infos);
  return { ...(cache ? { cache } : {}), ...(oldest ? { retrievedAt: oldest } : {}), ...(dataIncident ? { dataIncident } : {}) };
}

/**
 * Headers of a request that ran its calls: the settlement, the calls' cache state combined, and
 * Retry-After when a failed call asks to wait (a blocked marketplace's 503, a 429): the longest wait.
 */
export function servedHeaders(
  meter: Meter,
  parts: { requestId: string; rateLimit?: RateLimitState | undefined; settled: Settlement; results: readonly (CallSuccess | CallFailure)[] },
): Record<string, string> {
  const { requestId, rateLimit, settled, results } = parts;
  const waits = results.flatMap((r) => (!r.ok && (r.status === 503 || r.status === 429) && r.retryAfterSeconds !== undefined ? [r.retryAfterSeconds] : []));
  const meta = combinedResponseInfo(results.flatMap((r) => (r.ok ? [r.meta] : [])));
  const retryAfterSeconds = waits.length > 0 ? Math.max(...waits) : undefined;
  return meteringHeaders(meter, { requestId, rateLimit, charged: settled.charged, remaining: settled.remaining, meta, retryAfterSeconds });
}

/**
 * The parameters of one call as the client gave them (REST: query, or path and body, merged by name;
 * GraphQL and MCP: arguments, a job's items in the item form of every interface).
 */
export function parseCallParameters(op: Operation, params: Record<string, unknown>, style: ParameterStyle) {
  return style === 'rest' ? parseParameters(op, params, style, restSourceOf(op)) : parseCallArguments(op, params, style);
}

/**
 * The units an operation's successful call costs, as the ledger's operation list: one entry for a
 * metered operation, none for a free one (managing watches, reading events). A free call still
 * goes through admit and settle with zero units, so credentials, scope, the rate limit and the
 * order of refusals are exactly those of a metered call.
 */
export function chargedOperations(op: Operation): string[] {
  return op.billing === 'free' ? [] : [op.name];
}

/** The whole call of one operation (REST and MCP), metered or free. */
export async function runMeteredCall(
  deps: PipelineDeps,
  input: {
    op: Operation;
    params: Record<string, unknown>;
    style: ParameterStyle;
    headers: HeaderBag;
    signal?: AbortSignal;
    /** Errors of arguments the interface took out of `params` itself (MCP's listLimit and cursor), refused as shape errors. */
    argumentErrors?: readonly ParameterError[];
  },
): Promise<CallResult> {
  const requestId = requestIdFrom(input.headers);
  const own = parseCallParameters(input.op, input.params, input.style);
  const argumentErrors = input.argumentErrors ?? [];
  const parsed = argumentErrors.length === 0 ? own : { ok: false as const, errors: [...argumentErrors, ...(own.ok ? [] : own.errors)] };
  const charged = chargedOperations(input.op);
  const admitted = await admitCall(deps.meter, {
    headers: input.headers,
    iface: input.style,
    operations: charged,
    shapeErrors: parsed.ok ? [] : parsed.errors,
    requestId,
  });
  if (!admitted.ok) {
    return { ...admitted.failure, headers: refusalHeaders(deps.meter, requestId, admitted), unitsCharged: 0, requestId };
  }
  const result = parsed.ok
    ? await executeOperation(deps.core, input.op, parsed.request, {
        requestId,
        style: input.style,
        accountId: admitted.hold.accountId,
        ...(input.signal ? { signal: input.signal } : {}),
      })
    : parameterFailure(parsed.errors); // unreachable: admit answers `shape` first
  const settled = await settleHold(deps.meter, admitted.hold, result.ok ? charged : []);
  const headers = servedHeaders(deps.meter, { requestId, rateLimit: admitted.rateLimit, settled, results: [result] });
  return {
    ...result,
    headers,
    unitsCharged: settled.charged,
    ...(settled.remaining !== undefined ? { unitsRemaining: settled.remaining } : {}),
    requestId,
  };
}
