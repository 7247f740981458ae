/**
 * The WatchService (the RPCs of watches, history and events) is built in watcher/src/service; this is
 * the one place the composition reaches it, through the interface agreed for it:
 * `createWatchService(deps)` and `createWatcherGrpcServer({ host, port, serviceToken, service, log })`
 * exported from watcher/src/service/index.ts. The module is loaded at run time so a build without it
 * (the service not merged yet) still runs the workers; role `api` then refuses to start.
 */
export interface WatcherGrpcServer {
  /** Binds and serves; resolves with the bound port (0 asks for a free one). */
  start(): Promise<{ port: number } | number>;
  stop(options?: { graceMs?: number }): Promise<void>;
}

export interface WatchServiceModule {
  createWatchService(deps: Record<string, unknown>): unknown;
  createWatcherGrpcServer(options: { host: string; port: number; serviceToken: string; service: unknown; log: (line: string) => void }): WatcherGrpcServer;
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

/** The port a started server reports, in either shape. */
export function boundPort(started: { port: number } | number): number {
  return typeof started === 'number' ? started : started.port;
}
