// Development and tests only: a worker thread that runs TypeScript sources. Node 20 does not apply
// `--import tsx` from a Worker's execArgv before loading its entry, so the worker registers tsx's
// loader itself and then imports the real entry (workerData.entry). Production runs dist .js directly.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
