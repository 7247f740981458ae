export { REPARSE_BATCH, REPARSE_QUEUE, type ReparseJob } from './reparse-queue.js';
export { createReparseProcessor, parserOfPage, type ReparseDependencies } from './run-reparse.js';
export { REPARSED_FIELDS, reviseFields, revisedPoint, type FieldRevision, type ReparsedField } from './point-revision.js';
export { startReparseWorker } from './reparse-worker.js';
