/** The watcher's storage layer: PostgreSQL or embedded PGlite behind one seam, migrated at start. */
export { createPgliteDatabase, createPostgresDatabase, type Database, type DatabaseSession, type PostgresDatabaseOptions, type Queryable } from '@retail/database';
export { openDatabase, openWatchStoreFromEnv, storeSettingsFromEnv, DEFAULT_DATA_DIR, type StoreSettings } from './open-database.js';
export { migrate, MIGRATIONS_DIR, MIGRATIONS_TABLE } from './migrate.js';
export { createWatchStore, openWatchStore, DEFAULT_JOB_RESULT_RETENTION_DAYS, DEFAULT_SNAPSHOT_RETENTION_DAYS, type WatchStore, type WatchStoreOptions } from './watch-store.js';
export type { Clock } from './clock.js';
export { InvalidCursorError, MAX_PAGE_SIZE, type Page } from './cursor.js';
export type { DueProduct, WatchDraft, WatchPatch, WebhookTarget, WatchRepository } from './watches.js';
export type { HistoryQuery, RecordedSnapshot, SnapshotRepository } from './snapshots.js';
export type { EventDraft, EventRepository } from './events.js';
export type { AttemptOutcome, DeliveryDraft, DeliveryStatus, DeliveryWork, DeliveryRecord, DeliveryRepository } from './deliveries.js';
export { MONTHS_AHEAD, type MaintenanceResult, type PartitionMaintenance } from './partitions.js';
export { hasEnded, TERMINAL_STATUSES, type JobRecord, type JobStatus, type JobStopReason, type JobWebhookRecord, type JobWebhookStatus } from './job-rows.js';
export type { DataIncidentRepository, IncidentChange, IncidentChangeDraft, IncidentStateName } from './data-incidents.js';
export type { JobChunkDraft, JobDraft, JobRepository, OpenChunk, StoredResult, WebhookAttempt } from './jobs.js';
export type { ChunkState, ChunkWork, JobChunkRepository, SettlingChunk, TakenChunk } from './job-chunks.js';
export { resultCursor, type JobResultRepository } from './job-results.js';
