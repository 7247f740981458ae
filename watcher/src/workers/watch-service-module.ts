/**
 * The WatchService (the RPCs of watches, history and events) is built in watcher/src/service; this is
 * the one place the composition reaches it, through the interface agreed for it:
 * `createWatchService(deps)`, `createWatcherGrpcServer({ host, port, serviceToken, service, log })`
 * and `watchLimitsFromEnv(env)` exported from watcher/src/service/index.ts. The module is loaded at
 * run time so a build without it (the service not merged yet) still runs the workers; role `api`
 * then refuses to start.
 */
import type { CoreClient } from '@retail/gateway-shared';
import type { JobSystem } from '../queue/index.js';
import type { WatchStore } from '../store/index.js';
import type { SecretKeyring, TargetPolicy } from '../webhooks/index.js';

/** The pino-style logger the service writes to. */
export interface ServiceLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface WatchServiceDeps {
  readonly store: WatchStore;
  readonly jobs: Pick<JobSystem, 'queue'>;
  readonly core: CoreClient;
  readonly webhooks: { readonly policy: TargetPolicy; readonly keyring: SecretKeyring };
  readonly maxWatchesPerAccount?: number;
  readonly log: ServiceLog;
}

export interface WatcherGrpcServer {
  /** Binds and serves; resolves with the bound port (0 asks for a free one). */
  start(): Promise<{ port: number }>;
  stop(options?: { graceMs?: number }): Promise<void>;
}

export interface WatchServiceModule {
  createWatchService(deps: WatchServiceDeps): unknown;
  createWatcherGrpcServer(options: { host: string; port: number; serviceToken: string; service: never; log: ServiceLog }): WatcherGrpcServer;
  watchLimitsFromEnv?(env: NodeJS.ProcessEnv): { maxWatchesPerAccount: number };
}

/** The service module, or undefined when this build has none. */
export async function loadWatchServiceModule(): Promise<WatchServiceModule | undefined> {
  // A variable specifier keeps the type checker and the dependency rules from requiring the file.
  const specifier = '../service/index.js';
  try {
    const module = (await import(specifier)) as Partial<WatchServiceModule>;
    if (typeof module.createWatchService !== 'function' || typeof module.createWatcherGrpcServer !== 'function') return undefined;
    return module as WatchServiceModule;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** The service's structured log onto the watcher's one-line log. */
export function serviceLogOf(log: (line: string) => void): ServiceLog {
  const line = (level: string) => (fields: object, message: string) => log(`${level === 'info' ? '' : `${level}: `}${message} ${JSON.stringify(fields)}`);
  return { info: line('info'), warn: line('warn'), error: line('error') };
}
