/**
 * Starts the contract stack (replay server, core, metering, the registered gateways) and keeps it
 * running for the third-party conformance runners (../shared/conformance): prints BASE and KEY.
 *   RETAIL_CORPUS=../shared/corpus node --conditions=source --import tsx test/contract/serve.ts
 * PLAN=free to see rate limiting (default unlimited), UNITS (default 1000000).
 */
import { startStack } from '../harness/stack.js';
import { DRIVERS } from './drivers/index.js';

const stack = await startStack({ mounts: DRIVERS.map((d) => d.mount) });
for (const note of stack.notes) console.error(`note: ${note}`);
const { accountId } = await stack.metering.admin.createAccount({ units: Number(process.env.UNITS) || 1_000_000, plan: process.env.PLAN || 'unlimited' });
const { key } = await stack.metering.admin.createKey(accountId);
// The stack's metering clock is manual (tests move it); a live server needs it to follow time.
setInterval(() => stack.advanceClock(100), 100).unref();
console.log(`BASE=${stack.baseUrl} KEY=${key} CORE=${stack.coreKind}`);
const stop = () => void stack.close().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
