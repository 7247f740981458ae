import { randomBytes } from 'node:crypto';

/** Settings of the one-process composition (`npm start`), read once from the environment. */
export interface AppConfig {
  readonly host: string;
  readonly port: number;
  /** gRPC port of the in-process core; 0 picks a free one. */
  readonly grpcPort: number;
  readonly serviceToken: string;
  readonly marketplaceOrigin?: string;
  readonly redisUrl?: string;
  readonly coreDeadlineMs: number;
  /** Units granted to the development key printed at start. */
  readonly devUnits: number;
}

export function loadAppConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = integer(env.PORT, 8080, 'PORT');
  return {
    host: env.HOST ?? '127.0.0.1',
    port,
    grpcPort: integer(env.GRPC_PORT, 50051, 'GRPC_PORT'),
    // In one process the token never leaves the machine; a fresh random one per start is enough.
    serviceToken: env.SERVICE_TOKEN ?? randomBytes(24).toString('base64url'),
    marketplaceOrigin: env.MARKETPLACE_ORIGIN || undefined,
    redisUrl: env.REDIS_URL || env.LEDGER_REDIS_URL || undefined,
    coreDeadlineMs: integer(env.CORE_DEADLINE_MS, 10_000, 'CORE_DEADLINE_MS'),
    devUnits: integer(env.DEV_UNITS, 1000, 'DEV_UNITS'),
  };
}

function integer(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}
