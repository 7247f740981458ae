/**
 * The environment variables each deployable reads (the project's documented names; see the
 * "Configuration" section of docs/deploy.md). The chart may set these and no others.
 */
import type { DeployableName } from './workspace.js';

const SHARED = ['LOG_LEVEL'] as const;
const GATEWAY = [...SHARED, 'HOST', 'PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'CORE_DEADLINE_MS', 'CORS_ORIGINS', 'LEDGER_REDIS_URL', 'REDIS_URL'];

/**
 * Proposed, not yet read by the code: set only with redis.external.*Cluster=true, so the stores can
 * build an ioredis Cluster client from the URL's node. Listed here deliberately, not by accident.
 */
export const PROPOSED_CLUSTER_FLAGS = { ledger: 'LEDGER_REDIS_CLUSTER', cache: 'CACHE_REDIS_CLUSTER' } as const;

export const DOCUMENTED_ENV: Record<DeployableName, readonly string[]> = {
  core: [
    ...SHARED,
    'GRPC_HOST',
    'GRPC_PORT',
    'SERVICE_TOKEN',
    'MARKETPLACE_ORIGIN',
    'CACHE_REDIS_URL',
    'REDIS_URL',
    'UPSTREAM_TIMEOUT_MS',
    'REVIEWS_SESSION_COOKIE',
    PROPOSED_CLUSTER_FLAGS.cache,
  ],
  rest: [...GATEWAY, PROPOSED_CLUSTER_FLAGS.ledger],
  graphql: [...GATEWAY, PROPOSED_CLUSTER_FLAGS.ledger],
  mcp: [...GATEWAY, PROPOSED_CLUSTER_FLAGS.ledger],
  console: [
    ...SHARED,
    'HOST',
    'PORT',
    'LEDGER_REDIS_URL',
    'REDIS_URL',
    'CONSOLE_SIGNUP_MODE',
    'CONSOLE_SESSION_SECRET',
    'CONSOLE_SECURE_COOKIES',
    PROPOSED_CLUSTER_FLAGS.ledger,
  ],
};

/** Variables each deployable must get from the chart (required, or the chart's wiring is broken). */
export const REQUIRED_ENV: Record<DeployableName, readonly string[]> = {
  core: ['GRPC_PORT', 'SERVICE_TOKEN', 'CACHE_REDIS_URL'],
  rest: ['PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL'],
  graphql: ['PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL'],
  mcp: ['PORT', 'CORE_ADDRESS', 'SERVICE_TOKEN', 'LEDGER_REDIS_URL'],
  console: ['PORT', 'LEDGER_REDIS_URL', 'CONSOLE_SESSION_SECRET', 'CONSOLE_SIGNUP_MODE'],
};
