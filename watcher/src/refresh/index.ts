/**
 * The refresh pipeline: scheduled product refreshes (read once, store, evaluate, charge, notify),
 * the schedules that drive them, resuming watches when units return, and webhook delivery jobs.
 * No interface serves it yet; the RPCs and gateways compose it later.
 */
export type { SnapshotFields, SnapshotRead, SnapshotReader } from './snapshot-reader.js';
export { createCoreSnapshotReader } from './core-snapshot-reader.js';
export { refreshHoldId } from './hold-ids.js';
export { DELIVERY_QUEUE, REFRESH_QUEUE, REFRESH_RETRY_DELAYS_MS, productScheduleId, type DeliveryJob, type RefreshJob } from './refresh-queues.js';
export { createRefreshProcessor, REFRESH_OPERATION, RetryableRefreshError, type RefreshDependencies } from './refresh-product.js';
export { syncAllSchedules, syncProductSchedule } from './schedule-sync.js';
export { refreshNowJobId, resumePaused } from './resume-paused.js';
export { createDeliveryProcessor, RetryableDeliveryError, type DeliveryDependencies } from './deliver-webhook.js';
