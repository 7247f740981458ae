/**
 * How the core's and the watcher's entry points stop (the watcher may not import the core): the
 * first SIGTERM or SIGINT runs the deployable's own graceful stop, once, then the process exits, 0
 * when the stop finished and 1 when it failed. A second signal while stopping changes nothing.
 */
export function stopOnSignals(stop: (signal: NodeJS.Signals) => Promise<void>, onFailure: (error: unknown) => void): void {
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        onFailure(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
