/**
 * A watcher replica that dies mid-job, for bullmq-crash.test.ts: it takes jobs from the queue named
 * on the command line, writes the job's effect (idempotently, keyed by the run id), says so on
 * stdout, and then hangs until the test kills it with SIGKILL, before BullMQ could record the job
 * as done. Usage: node --import tsx crashing-worker.ts <redisUrl> <queueName> <lockDurationMs>
 */
import { Redis } from 'ioredis';
import { createBullJobSystem, defineQueue } from '../../watcher/src/queue/index.js';
import { writeEffectOnce } from './idempotent-effect.js';

const [redisUrl, queueName, lockDurationMs] = process.argv.slice(2);
const effects = new Redis(redisUrl!);
const system = await createBullJobSystem({ redisUrl: redisUrl!, lockDurationMs: Number(lockDurationMs), stalledIntervalMs: Number(lockDurationMs) });
system.work(defineQueue<{ label: string }>(queueName!), async (run) => {
  await writeEffectOnce(effects, queueName!, run.id);
  process.stdout.write(`effect written ${run.id}\n`);
  await new Promise(() => {});
}, { concurrency: 1 });
process.stdout.write('ready\n');
