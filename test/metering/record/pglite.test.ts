/**
 * The record suite on embedded PGlite (in memory), the engine of the one-process `npm start`; and the
 * whole ledger suite through the recorded store, which must not change a single answer of the ledger.
 */
import { afterAll } from 'vitest';
import { createPgliteDatabase } from '@retail/database';
import { createMetering } from '../../../gateways/metering/src/index.js';
import { ledgerSuite } from '../ledger-suite.js';
import { recordSuite } from './record-suite.js';

recordSuite('PGlite, memory store', () => createPgliteDatabase());

const shared = await createPgliteDatabase();
afterAll(() => shared.close());
ledgerSuite('memory store with a PGlite record', (options) => createMetering({ ...options, record: shared, log: () => undefined }));
