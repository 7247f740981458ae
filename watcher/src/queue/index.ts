/** The job system: one interface (job-system.ts), BullMQ in production, an in-memory twin embedded. */
export type { AddJobOptions, JobPriority, JobProcessor, JobQueue, JobRun, JobSystem, JobWorker, ScheduleOptions, ScheduleState, WorkOptions } from './job-system.js';
export { UnrecoverableJobError } from './job-system.js';
export { ABOUT_A_DAY_OF_RETRIES_MS, defineQueue, type QueueDefinition } from './queue-definition.js';
export { createBullJobSystem, type BullJobSystemOptions } from './bullmq-job-system.js';
export { createMemoryBroker, createMemoryJobSystem, type MemoryJobSystemOptions } from './memory-job-system.js';
export { createJobSystemFromEnv, queueRedisUrl } from './from-env.js';
export type { Timers } from './timers.js';
