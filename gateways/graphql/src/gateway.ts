/**
 * `POST /api/graphql` (Apollo Server 5 on express 5). Everything that decides whether the request
 * runs happens before Apollo sees it, in CONTRACT.md's order: HTTP shape → credentials → document
 * (syntax, validation) → plan (complexity bound, parameter shape) → scope, rate limit, units for
 * every planned operation (one hold) → execute → settle only the successes → headers and
 * `extensions`. Request-level refusals answer their HTTP status with the error envelope.
 */
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express, { type NextFunction, type Request, type Response } from 'express';
import { type DocumentNode, GraphQLError, type GraphQLSchema, Kind, parse, validate } from './graphql.js';
import { admitCall, type CallFailure, type CoreClient, createCors, type EnvelopeError, executeOperation, meteringHeaders, requestIdFrom, type ResponseInfo, singleFailure } from '@retail/gateway-shared';
import { ErrorReason } from '@retail/contract';
import type { Hold, Meter, Metering, RateLimitState } from '@retail/metering/api';
import { formatGraphqlError } from './format-error.js';
import { DEFAULT_BODY_LIMIT_BYTES, checkBody, jsonBody, requirePostJson, sendEnvelope } from './http-body.js';
import { type RequestPlan, planRequest } from './plan.js';
import type { CallOutcome, GraphqlContext, OperationFailure } from './resolvers.js';
import { combinedResponseInfo } from './response-info.js';
import { buildRetailSchema } from './schema.js';

export const GRAPHQL_PATH = '/api/graphql';
export const DEFAULT_MAX_OPERATIONS = 10;
export const DEFAULT_MAX_DEPTH = 10;
/** Parser token cap: bounds the work a huge document can cost before validation. */
const MAX_TOKENS = 5000;
/** Parsed and validated documents kept (each at most the body limit; typical queries are < 1 KiB). */
const DOCUMENT_CACHE_ENTRIES = 500;

type ParsedDocument = { readonly document: DocumentNode } | { readonly errors: readonly GraphQLError[] };

export interface GraphqlGatewayOptions {
  readonly core: CoreClient;
  readonly metering: Pick<Metering, 'meter'>;
  /** Most core calls one request may plan (aliases, per-product fields). */
  readonly maxOperations?: number;
  /** Deepest selection allowed (introspection fields excluded). */
  readonly maxDepth?: number;
  readonly bodyLimitBytes?: number;
  /** CORS_ORIGINS: origins allowed to call from a browser (`*` for any); empty keeps CORS closed. */
  readonly corsOrigins?: readonly string[];
}

/** A call's outcome with what the settle step and the headers need. */
type RunOutcome = CallOutcome & { readonly operation: string; readonly meta?: ResponseInfo; readonly retryAfterSeconds?: number };

/** Per-request state shared by the resolvers and the settle step. */
interface RequestState extends GraphqlContext {
  readonly requestId: string;
  readonly hold?: Hold;
  readonly rateLimit?: RateLimitState;
  readonly runs: Map<number, Promise<RunOutcome>>;
  settled: boolean;
}

/** A document error; one about an argument (unknown, wrong literal) names the argument, as REST names a parameter. */
function documentErrorEntry(error: GraphQLError): EnvelopeError {
  const argument = error.nodes?.find((n) => n.kind === Kind.ARGUMENT);
  return { code: 400, message: error.message, ...(argument?.kind === Kind.ARGUMENT ? { path: [argument.name.value] } : {}) };
}

function failureOf(status: number, entry: EnvelopeError | undefined): OperationFailure {
  return { status, message: entry?.message ?? 'internal error', ...(entry?.path && entry.path.length > 0 ? { argumentPath: entry.path } : {}) };
}

/** The longest wait any failed call asked for (a blocked marketplace's 503), for Retry-After. */
function longestRetryAfter(outcomes: readonly RunOutcome[]): number | undefined {
  const waits = outcomes.flatMap((o) => (!o.ok && o.retryAfterSeconds !== undefined ? [o.retryAfterSeconds] : []));
  return waits.length > 0 ? Math.max(...waits) : undefined;
}

function envelopeOf(errors: readonly EnvelopeError[]) {
  return { success: false as const, errors: errors.map((e) => ({ code: e.code, message: e.message, ...(e.path && e.path.length > 0 ? { path: e.path } : {}) })) };
}

export async function createGraphqlGateway(options: GraphqlGatewayOptions): Promise<express.Router> {
  const { core } = options;
  const meter: Meter = options.metering.meter;
  const limits = { maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH, maxOperations: options.maxOperations ?? DEFAULT_MAX_OPERATIONS };
  const schema: GraphQLSchema = buildRetailSchema();

  async function settle(state: RequestState): Promise<{ charged: number; remaining?: number; outcomes: RunOutcome[] }> {
    const outcomes = await Promise.all(state.runs.values());
    if (state.settled || !state.hold) return { charged: 0, outcomes };
    state.settled = true;
    const succeeded = outcomes.filter((o) => o.ok).map((o) => o.operation);
    try {
      const result = await meter.settle(state.hold, succeeded.length, succeeded);
      return { charged: result.charged, remaining: result.remaining, outcomes };
    } catch {
      return { charged: 0, outcomes };
    }
  }

  const server = new ApolloServer<RequestState>({
    schema,
    introspection: true,
    persistedQueries: false,
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphqlError,
    plugins: [
      ApolloServerPluginLandingPageDisabled(),
      {
        async requestDidStart() {
          return {
            async willSendResponse({ contextValue: state, response }) {
              const { charged, remaining, outcomes } = await settle(state);
              const retryAfter = longestRetryAfter(outcomes);
              const headers = meteringHeaders(meter, {
                ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
                requestId: state.requestId,
                charged,
                ...(state.rateLimit ? { rateLimit: state.rateLimit } : {}),
                ...(remaining !== undefined ? { remaining } : {}),
                meta: combinedResponseInfo(outcomes.flatMap((o) => (o.meta ? [o.meta] : []))),
              });
              for (const [name, value] of Object.entries(headers)) response.http.headers.set(name.toLowerCase(), value);
              if (response.body.kind === 'single') {
                response.body.singleResult.extensions = {
                  ...response.body.singleResult.extensions,
                  unitsCharged: charged,
                  ...(remaining !== undefined && Number.isFinite(remaining) ? { unitsRemaining: remaining } : {}),
                  requestId: state.requestId,
                };
              }
            },
          };
        },
      },
    ],
  });
  await server.start();

  function refuse(res: Response, requestId: string, failure: CallFailure, rateLimit?: RateLimitState): void {
    const headers = meteringHeaders(meter, {
      requestId,
      charged: 0,
      ...(rateLimit ? { rateLimit } : {}),
      ...(failure.retryAfterSeconds !== undefined ? { retryAfterSeconds: failure.retryAfterSeconds } : {}),
    });
    res.status(failure.status).set(headers).json(envelopeOf(failure.errors));
  }

  // Parsing and validating cost more than the rest of the gateway's own work; clients repeat queries.
  const documents = new Map<string, ParsedDocument>();
  function cachedDocument(query: string): ParsedDocument {
    const hit = documents.get(query);
    if (hit) {
      documents.delete(query); // re-insert: the Map's order is the LRU order
      documents.set(query, hit);
      return hit;
    }
    const parsed = parseDocument(query);
    documents.set(query, parsed);
    if (documents.size > DOCUMENT_CACHE_ENTRIES) documents.delete(documents.keys().next().value as string);
    return parsed;
  }

  function parseDocument(query: string): ParsedDocument {
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: MAX_TOKENS });
    } catch (err) {
      return { errors: [err instanceof GraphQLError ? err : new GraphQLError('the query could not be parsed')] };
    }
    const errors = validate(schema, document, undefined, { maxErrors: 20 });
    return errors.length > 0 ? { errors } : { document };
  }

  /** Decides whether the request runs; on success leaves the RequestState in res.locals. */
  async function admit(req: Request, res: Response, next: NextFunction): Promise<void> {
    const checked = checkBody(req.body);
    if (!checked.ok) return sendEnvelope(res, 400, checked.message);
    const requestId = requestIdFrom(req.headers);
    const credentials = meter.readCredentials(req.headers, 'graphql');
    if (!credentials.ok) {
      const d = credentials.denial;
      return refuse(res, requestId, singleFailure(d.httpStatus, d.reason, d.message, undefined, d.retryAfterSeconds));
    }
    const authenticateFree = async (): Promise<{ ok: true; rateLimit?: RateLimitState } | { ok: false }> => {
      const auth = await meter.authenticate(credentials.key, 'graphql');
      if (auth.ok) return { ok: true, ...(auth.rateLimit ? { rateLimit: auth.rateLimit } : {}) };
      const d = auth.denial;
      refuse(res, requestId, singleFailure(d.httpStatus, d.reason, d.message, undefined, d.retryAfterSeconds), d.rateLimit);
      return { ok: false };
    };

    const parsed = cachedDocument(checked.body.query);
    if ('errors' in parsed) {
      // A bad key still answers 401 first; a document error costs nothing.
      if (!(await authenticateFree()).ok) return;
      return refuse(res, requestId, { ok: false, status: 400, reason: ErrorReason.INVALID_ARGUMENT, errors: parsed.errors.map(documentErrorEntry) });
    }
    const planned = planRequest(schema, { document: parsed.document, operationName: checked.body.operationName, variables: checked.body.variables }, limits);
    if (!planned.ok) {
      const admitted = await admitCall(meter, {
        headers: req.headers,
        iface: 'graphql',
        operations: planned.operations,
        shapeErrors: planned.errors.map((e) => ({ message: e.message, path: e.path ?? [] })),
        requestId,
      });
      if (admitted.ok) await meter.settle(admitted.hold, 0).catch(() => undefined); // not expected: shape errors hold nothing
      const failure = admitted.ok ? singleFailure(400, ErrorReason.INVALID_ARGUMENT, planned.errors[0]?.message ?? 'invalid request') : admitted.failure;
      return refuse(res, requestId, failure, admitted.rateLimit);
    }
    const plan: RequestPlan = planned.plan;
    let hold: Hold | undefined;
    let rateLimit: RateLimitState | undefined;
    if (plan.calls.length === 0) {
      // Introspection and __typename only: free, but the key must be valid.
      const auth = await authenticateFree();
      if (!auth.ok) return;
      rateLimit = auth.rateLimit;
    } else {
      const admitted = await admitCall(meter, {
        headers: req.headers,
        iface: 'graphql',
        operations: plan.calls.map((c) => c.operation.name),
        shapeErrors: [],
        requestId,
      });
      if (!admitted.ok) return refuse(res, requestId, admitted.failure, admitted.rateLimit);
      hold = admitted.hold;
      rateLimit = admitted.rateLimit;
    }
    const runs: RequestState['runs'] = new Map();
    const state: RequestState = {
      plan,
      requestId,
      runs,
      settled: false,
      ...(hold ? { hold } : {}),
      ...(rateLimit ? { rateLimit } : {}),
      run(call) {
        let run = runs.get(call.id);
        if (!run) {
          run = executeOperation(core, call.operation, call.request, { requestId, style: 'graphql' }).then((result) =>
            result.ok
              ? { ok: true as const, data: result.data, operation: call.operation.name, meta: result.meta }
              : {
                  ok: false as const,
                  failure: failureOf(result.status, result.errors[0]),
                  operation: call.operation.name,
                  ...(result.retryAfterSeconds !== undefined && (result.status === 503 || result.status === 429) ? { retryAfterSeconds: result.retryAfterSeconds } : {}),
                },
          );
          runs.set(call.id, run);
        }
        return run;
      },
    };
    // Whatever happens next, a hold never outlives the response uncharged-but-unreleased.
    res.on('close', () => void settle(state));
    res.locals.graphql = state;
    next();
  }

  const router = express.Router();
  router.use(GRAPHQL_PATH, createCors({ origins: options.corsOrigins ?? [], methods: ['POST'], extraAllowedHeaders: ['Accept'] }));
  router.all(
    GRAPHQL_PATH,
    requirePostJson,
    jsonBody(options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES),
    (req, res, next) => void admit(req, res, next).catch(next),
    expressMiddleware(server, { context: async ({ res }) => res.locals.graphql as RequestState }),
  );
  return router;
}
