/**
 * The graceful stop of the core's and the watcher's gRPC servers (the watcher may not import the
 * core): calls in flight get `graceMs` to finish, then the server is forced down. A server that
 * never bound is forced at once. Not exported from the package index (clients need no server
 * code); the server is typed by what is called (grpc-js's `Server` fits).
 */
export interface StoppableGrpcServer {
  tryShutdown(callback: (error?: Error) => void): void;
  forceShutdown(): void;
}

/** `onForced` hears when the grace period ran out (the caller's log). */
export async function stopGrpcServer(server: StoppableGrpcServer, options: { started: boolean; graceMs: number; onForced?: () => void }): Promise<void> {
  if (!options.started) return server.forceShutdown();
  await new Promise<void>((resolve) => {
    const force = setTimeout(() => {
      options.onForced?.();
      server.forceShutdown();
      resolve();
    }, options.graceMs);
    force.unref();
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}
