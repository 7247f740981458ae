/**
 * `POST /api/graphql`: Apollo Server 5 on express 5, the gateway's own work as Apollo plugins, in
 * docs/contract.md's order: HTTP shape and content negotiation (express) → credentials into the context → one parse and one
 * validation (Apollo, its document store keeps the result) → admission in `didResolveOperation` →
 * the resolvers run the plan → settlement in `willSendResponse`.
 */
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import express from 'express';
import { type CoreClient, createCors } from '@retail/gateway-shared';
import type { Metering } from '@retail/metering/api';
import { admissionPlugin } from './admission.js';
import { requireAcceptableResponseType } from './content-negotiation.js';
import { type GraphqlContext, createContext } from './context.js';
import { createGraphiqlAssets, graphiqlLandingPage, graphiqlPageHeaders } from './graphiql.js';
import { formatGraphqlError, stringifyResult } from './errors.js';
import { graphqlBody, requirePostJson } from './http-body.js';
import { buildRetailSchema } from './schema.js';
import { settleRequest, settlementPlugin } from './settlement.js';

export const GRAPHQL_PATH = '/api/graphql';
export const DEFAULT_MAX_OPERATIONS = 10;
export const DEFAULT_MAX_DEPTH = 10;
/** Parser token cap: bounds the work a huge document can cost before validation. */
const MAX_TOKENS = 5000;

export interface GraphqlGatewayOptions {
  readonly core: CoreClient;
  readonly metering: Pick<Metering, 'meter'>;
  /** Most core calls one request may plan (aliases, per-product fields), and its deepest selection (introspection excluded). */
  readonly maxOperations?: number;
  readonly maxDepth?: number;
  readonly bodyLimitBytes?: number;
  /** CORS_ORIGINS: origins allowed to call from a browser (`*` for any); empty keeps CORS closed. */
  readonly corsOrigins?: readonly string[];
  /** GraphiQL on a browser's `GET /api/graphql` (graphiql.ts); default on. Off: GET answers 405. */
  readonly landingPage?: boolean;
  /** More Apollo plugins (usage reporting, tracing); they see every request, refused ones too. */
  readonly plugins?: readonly ApolloServerPlugin<GraphqlContext>[];
}

export async function createGraphqlGateway(options: GraphqlGatewayOptions): Promise<express.Router> {
  const { core } = options;
  const { meter } = options.metering;
  const landingPage = options.landingPage ?? true;
  const limits = { maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH, maxOperations: options.maxOperations ?? DEFAULT_MAX_OPERATIONS };
  const server = new ApolloServer<GraphqlContext>({
    schema: buildRetailSchema(),
    introspection: true,
    persistedQueries: false,
    allowBatchedHttpRequests: false,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    parseOptions: { maxTokens: MAX_TOKENS },
    formatError: formatGraphqlError,
    stringifyResult,
    plugins: [
      landingPage ? graphiqlLandingPage() : ApolloServerPluginLandingPageDisabled(),
      admissionPlugin(meter, limits),
      settlementPlugin(meter),
      ...(options.plugins ?? []),
    ],
  });
  await server.start();

  const apollo = expressMiddleware(server, {
    async context({ req, res }) {
      const ctx = createContext(meter, core, req.headers);
      // Whatever happens next, a hold never outlives the response uncharged-but-unreleased.
      res.on('close', () => void settleRequest(meter, ctx));
      return ctx;
    },
  });
  const router = express.Router();
  router.use(GRAPHQL_PATH, createCors({ origins: options.corsOrigins ?? [], methods: ['POST'], extraAllowedHeaders: ['Accept'] }));
  if (landingPage) {
    // A browser asking for HTML gets GraphiQL (through Apollo's landing page); anything else is refused below.
    router.get(GRAPHQL_PATH, (req, _res, next) => (req.accepts(['json', 'html']) === 'html' ? next() : next('route')), graphiqlPageHeaders, express.json(), apollo);
    router.use(createGraphiqlAssets());
  }
  router.all(GRAPHQL_PATH, requirePostJson, requireAcceptableResponseType, ...graphqlBody(options.bodyLimitBytes), apollo);
  return router;
}
