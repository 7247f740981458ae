import { createMetering } from '../../gateways/metering/src/index.js';
import { ledgerSuite } from './ledger-suite.js';

ledgerSuite('memory store', (options) => createMetering(options));
