/** The watcher's workers: refreshes, deliveries and housekeeping on the job system (start-workers.ts). */
export { startWatcherWorkers, DEFAULT_CONCURRENCY, type WatcherWorkerDependencies, type WatcherWorkers, type WorkerConcurrency } from './start-workers.js';
export { MAINTENANCE_QUEUE, RESUME_CHECK_QUEUE, MAINTENANCE_SCHEDULE, RESUME_CHECK_SCHEDULE } from './housekeeping-queues.js';
export { accountsPausedForUnits, resumeFundedAccounts } from './resume-funded.js';
export { requeueOpenDeliveries } from './open-deliveries.js';
export { startWatcher, type RunningWatcher, type StartWatcherOptions } from './start-watcher.js';
export { startHealthServer, type HealthServer } from './health-server.js';
