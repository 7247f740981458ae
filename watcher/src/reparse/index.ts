export { DEFAULT_REPARSE_CONCURRENCY, REPARSE_BATCH, REPARSE_QUEUE, type ReparseJob } from './reparse-queue.js';
export { readInOrder, type ReadInOrderOptions } from './read-in-order.js';
export { createReparseProcessor, type ReparseDependencies } from './run-reparse.js';
export { parserOfPage } from '../store/archived-pages.js';
export { REPARSED_FIELDS, reviseFields, revisedPoint, type FieldRevision, type ReparsedField } from './point-revision.js';
export { startReparseWorker } from './reparse-worker.js';
export { CANCELLED_BY_OPERATOR, REPARSED_KINDS, refusalOf, startReparseJob, type ReparseStart } from './start-reparse-job.js';
