export { DEFAULT_REPARSE_CONCURRENCY, REPARSE_BATCH, REPARSE_QUEUE, type ReparseJob } from './reparse-queue.js';
export { readInOrder, type ReadInOrderOptions } from './read-in-order.js';
export { createReparseProcessor, type ReparseDependencies } from './run-reparse.js';
export { parserOfPage } from '../store/archived-pages.js';
export { REPARSED_FIELDS, reviseFields, revisedPoint, type FieldRevision, type ReparsedField } from './point-revision.js';
export { startReparseWorker } from './reparse-worker.js';
