/**
 * What every gateway deployment (rest, graphql, mcp) does the same way at start: read its common
 * settings from the environment, and serve its express app with a graceful SIGTERM shutdown.
 */
import type { Server } from 'node:http';
import type { Express } from 'express';
import type { CoreClientOptions } from './core-client.js';

export interface GatewaySettings {
  readonly port: number;
  readonly host: string;
  readonly core: CoreClientOptions;
  readonly corsOrigins: readonly string[];
}

/** A positive whole number from the environment, or undefined when unset or not one. */
export function positiveSetting(value: string | undefined): number | undefined {
  const n = Number(value);
  return value !== undefined && value !== '' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/**
 * PORT (8080), HOST (0.0.0.0), CORE_ADDRESS (127.0.0.1:50051), SERVICE_TOKEN (required),
 * CORE_DEADLINE_MS (10000), CORS_ORIGINS (comma list; CORS closed when unset). Exits with a message
 * when SERVICE_TOKEN is missing: a gateway without it could never reach the core.
 */
export function readGatewaySettings(env: NodeJS.ProcessEnv = process.env): GatewaySettings {
  const serviceToken = env.SERVICE_TOKEN;
  if (!serviceToken) {
    process.stderr.write('SERVICE_TOKEN is required\n');
    process.exit(1);
  }
  return {
    port: positiveSetting(env.PORT) ?? 8080,
    host: env.HOST || '0.0.0.0',
    core: {
      address: env.CORE_ADDRESS || '127.0.0.1:50051',
      serviceToken,
      deadlineMs: positiveSetting(env.CORE_DEADLINE_MS) ?? 10_000,
    },
    corsOrigins: (env.CORS_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
  };
}

/**
 * Listens, logs one JSON line, and on SIGTERM/SIGINT stops accepting, lets in-flight requests finish
 * (10 s at most), then closes what `close` names (the ledger connection).
 */
export function serveGateway(
  name: string,
  app: Express,
  settings: GatewaySettings,
  options: { readonly close: () => Promise<void>; readonly details?: Record<string, unknown> },
): Server {
  const server = app.listen(settings.port, settings.host, () => {
    console.log(JSON.stringify({ level: 'info', msg: `${name} listening`, port: settings.port, core: settings.core.address, ...options.details }));
  });
  const shutdown = () => {
    server.close(() => void options.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
  return server;
}
