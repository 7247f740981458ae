/**
 * The JobService over real gRPC (Connect's client against the watcher's grpc-js server), with the real
 * bulk-job workers on the in-memory job system, a memory ledger and a stand-in core: a job's whole
 * life (refused and malformed items, successes, not-found and failing items, exact charges, results by
 * page and by stream in item order, progress), out of units, cancel, another account's job, bad
 * input, and the end webhook verified with the `standardwebhooks` library by an HTTPS receiver.
 */
import { create } from '@bufbuild/protobuf';
import { ConnectError } from '@connectrpc/connect';
import {
  BatchItemSchema, type BatchItemResult, Domain, ErrorDetailSchema, ErrorReason, JobStatus, JobStopReason, WebhookDeliveryStatus,
} from '@retail/contract';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BLOCKED_ONCE_ASIN, BROKEN_ASIN, NOT_FOUND_ASIN, as, newAccountId, openJobWorld, productItem, until, type JobWorld } from './fixtures.js';

let world: JobWorld;
beforeAll(async () => {
  world = await openJobWorld({ chunkSize: 3 });
});
afterAll(async () => world?.close());

const detailOf = (error: unknown) => {
  const connect = ConnectError.from(error);
  return { code: connect.code, detail: connect.findDetails(ErrorDetailSchema)[0] };
};

async function finished(account: string, id: string, timeoutMs?: number) {
  await until(async () => (await world.client.getJob({ id }, as(account))).retailJob?.finishedAt !== undefined
    && (await world.store.jobs.get(account, id))?.expiresAt !== undefined, `job ${id} to end`, timeoutMs);
  return (await world.client.getJob({ id }, as(account))).retailJob!;
}

async function allResults(account: string, id: string): Promise<BatchItemResult[]> {
  const out: BatchItemResult[] = [];
  for await (const message of world.client.streamJobResults({ id }, as(account))) out.push(message.result!);
  return out;
}

describe('a job of mixed items', () => {
  it('runs every item once, charges exactly its successes, and keeps refused and failed items as errors in item order', async () => {
    const account = await world.account(100);
    const items = [
      productItem('B0GOOD0001'), productItem(NOT_FOUND_ASIN), productItem('B0GOOD0002'),
      create(BatchItemSchema, { request: { case: 'product', value: { asin: 'short', domain: Domain.US } } }), // malformed: refused here
      productItem(BROKEN_ASIN), productItem('B0GOOD0003'), productItem(BLOCKED_ONCE_ASIN),
    ];
    const rejected = { index: 1, error: create(ErrorDetailSchema, { reason: ErrorReason.INVALID_ARGUMENT, message: 'asin must be 10 letters or digits', fieldPath: ['params', 'asin'] }), operation: 'offers' };
    const created = (await world.client.createJob({ items, rejectedItems: [rejected], label: ' nightly ' }, as(account))).retailJob!;
    expect(created).toMatchObject({ status: JobStatus.QUEUED, total: 8, label: 'nightly', unitsCharged: 0 });
    expect(created.done).toBe(2);

    // The blocked item makes its chunk run again 5 s later (the chunk queue's first retry delay), for it alone.
    const job = await finished(account, created.id, 20_000);
    // Items: 0 good, 1 refused by the gateway, 2 not found, 3 good, 4 malformed, 5 core fault, 6 good, 7 blocked once, then good.
    expect(job).toMatchObject({ status: JobStatus.DONE, total: 8, done: 8, failed: 4, unitsCharged: 4 });
    expect((await world.metering.admin.summary(account)).balance).toBe(96);
    const results = await allResults(account, created.id);
    expect(results.map((r) => r.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(results.map((r) => r.result.case)).toEqual(['product', 'error', 'error', 'product', 'error', 'error', 'product', 'product']);
    const errors = results.flatMap((r) => (r.result.case === 'error' ? [[r.index, ErrorReason[r.result.value.reason]]] : []));
    expect(errors).toEqual([[1, 'INVALID_ARGUMENT'], [2, 'NOT_FOUND'], [4, 'INVALID_ARGUMENT'], [5, 'INTERNAL']]);
    expect(results[4]!.result.value).toMatchObject({ fieldPath: ['asin'] });
    // Every error keeps the operation its item named: the refused one the gateway's, the others their BatchItem's.
    expect(results.filter((r) => r.result.case === 'error').map((r) => [r.index, r.itemOperation])).toEqual([[1, 'offers'], [2, 'product'], [4, 'product'], [5, 'product']]);
    expect(results[3]!.result.case === 'product' && results[3]!.result.value.retailProduct?.asin).toBe('B0GOOD0002');
    // Each runnable item reached the core once, marked as background work; the malformed one never did.
    const asked = world.core.calls.filter((c) => c.headers.get('x-request-id')?.startsWith(`job-${created.id}`));
    expect(asked.map((c) => (c.request as unknown as { asin: string }).asin).sort()).toEqual(
      ['B0GOOD0001', NOT_FOUND_ASIN, 'B0GOOD0002', BROKEN_ASIN, 'B0GOOD0003', BLOCKED_ONCE_ASIN, BLOCKED_ONCE_ASIN].sort());
    expect(asked.every((c) => c.headers.get('x-retail-priority') === 'background')).toBe(true);
  });

  it('pages results by cursor in item order, and the cursor of an ended job ends', async () => {
    const account = await world.account(20);
    const { id } = (await world.client.createJob({ items: Array.from({ length: 7 }, (_, i) => productItem(`B0PAGE000${i}`)) }, as(account))).retailJob!;
    await finished(account, id);
    const first = (await world.client.listJobResults({ id, limit: 4 }, as(account))).retailJobResults!;
    expect(first.results.map((r) => r.index)).toEqual([0, 1, 2, 3]);
    const second = (await world.client.listJobResults({ id, limit: 4, cursor: first.nextCursor! }, as(account))).retailJobResults!;
    expect(second.results.map((r) => r.index)).toEqual([4, 5, 6]);
    expect(second.nextCursor).toBeUndefined();
    const resumed = [];
    for await (const m of world.client.streamJobResults({ id, cursor: '4' }, as(account))) resumed.push(m.cursor);
    expect(resumed).toEqual(['5', '6']);
  });

  it('streams progress until the job has ended, the last message the final state', async () => {
    const account = await world.account(20);
    const { id } = (await world.client.createJob({ items: Array.from({ length: 9 }, (_, i) => productItem(`B0PROG000${i}`)) }, as(account))).retailJob!;
    const seen = [];
    for await (const m of world.client.streamJobProgress({ id }, as(account))) seen.push(m.job!);
    expect(seen.at(-1)).toMatchObject({ status: JobStatus.DONE, done: 9, unitsCharged: 9 });
    expect(seen.at(-1)!.expiresAt).toBeDefined();
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.done).toBeGreaterThanOrEqual(seen[i - 1]!.done);
  });
});

describe('units', () => {
  it('a job that runs out of units stops FAILED with what it did, never overdrawing', async () => {
    const account = await world.account(7);
    const { id } = (await world.client.createJob({ items: Array.from({ length: 12 }, (_, i) => productItem(`B0UNIT00${String(i).padStart(2, '0')}`)) }, as(account))).retailJob!;
    const job = await finished(account, id);
    // Chunks of 3: two chunks fit in 7 units; the third cannot be held, so the job stops there.
    expect(job).toMatchObject({ status: JobStatus.FAILED, stopReason: JobStopReason.INSUFFICIENT_UNITS, total: 12 });
    expect(job.unitsCharged).toBe(job.done - job.failed);
    expect(job.done).toBeGreaterThanOrEqual(6);
    const { balance } = await world.metering.admin.summary(account);
    expect(balance).toBe(7 - job.unitsCharged);
    expect(balance).toBeGreaterThanOrEqual(0);
    expect((await allResults(account, id)).length).toBe(job.done);
  });
});

describe('cancel and isolation', () => {
  it('cancel is visible at once, items not started never run nor are charged, and a second cancel changes nothing', async () => {
    const account = await world.account(1000);
    // Paused workers would be a fake; instead a job large enough that cancel lands while most chunks wait.
    const { id } = (await world.client.createJob({ items: Array.from({ length: 300 }, (_, i) => productItem(`B0CANC${String(i).padStart(4, '0')}`)) }, as(account))).retailJob!;
    const cancelled = (await world.client.cancelJob({ id }, as(account))).retailJob!;
    expect(cancelled.status).toBe(JobStatus.CANCELLED);
    expect(cancelled.finishedAt).toBeDefined();
    const job = await finished(account, id);
    expect(job.status).toBe(JobStatus.CANCELLED);
    expect(job.done).toBeLessThan(300);
    expect(job.unitsCharged).toBe(job.done - job.failed);
    expect((await world.metering.admin.summary(account)).balance).toBe(1000 - job.unitsCharged);
    expect((await world.client.cancelJob({ id }, as(account))).retailJob).toMatchObject({ status: JobStatus.CANCELLED, done: job.done });
  });

  it('another account\'s job is NOT_FOUND on every call that names it', async () => {
    const owner = await world.account(10);
    const { id } = (await world.client.createJob({ items: [productItem('B0OWNED001')] }, as(owner))).retailJob!;
    const stranger = newAccountId();
    const calls = [
      () => world.client.getJob({ id }, as(stranger)),
      () => world.client.cancelJob({ id }, as(stranger)),
      () => world.client.listJobResults({ id }, as(stranger)),
      async () => { for await (const _ of world.client.streamJobResults({ id }, as(stranger))) void _; },
      async () => { for await (const _ of world.client.streamJobProgress({ id }, as(stranger))) void _; },
    ];
    for (const call of calls) {
      const failure = await call().then(() => undefined, (error: unknown) => error);
      expect(detailOf(failure)).toMatchObject({ code: 5, detail: { reason: ErrorReason.NOT_FOUND } });
    }
    expect((await world.client.listJobs({}, as(stranger))).retailJobs?.jobs).toEqual([]);
    expect((await world.client.listJobs({}, as(owner))).retailJobs?.jobs.map((j) => j.id)).toEqual([id]);
  });
});

describe('bad input', () => {
  const bad: Array<[string, Record<string, unknown>, string[]]> = [
    ['no items', { items: [] }, ['items']],
    ['a refused item outside the job', { items: [productItem('B0BADIN001')], rejectedItems: [{ index: 2, error: { reason: ErrorReason.INVALID_ARGUMENT, message: 'x' } }] }, ['rejected_items', '0', 'index']],
    ['a refused item twice', { items: [productItem('B0BADIN001')], rejectedItems: [0, 0].map((index) => ({ index, error: { reason: ErrorReason.INVALID_ARGUMENT, message: 'x' } })) }, ['rejected_items', '1', 'index']],
    ['a refused item naming no BatchItem case', { items: [productItem('B0BADIN001')], rejectedItems: [{ index: 1, error: { reason: ErrorReason.INVALID_ARGUMENT, message: 'x' }, operation: 'product/offers' }] }, ['rejected_items', '0', 'operation']],
    ['a refused item that is not a 400', { items: [productItem('B0BADIN001')], rejectedItems: [{ index: 0, error: { reason: ErrorReason.INTERNAL, message: 'x' } }] }, ['rejected_items', '0', 'error']],
    ['a webhook that is not https', { items: [productItem('B0BADIN001')], webhook: { url: 'http://example.com/hook' } }, ['webhook', 'url']],
    ['a label too long', { items: [productItem('B0BADIN001')], label: 'x'.repeat(201) }, ['label']],
  ];
  it.each(bad)('%s is INVALID_ARGUMENT on its field, and stores nothing', async (_name, request, fieldPath) => {
    const account = newAccountId();
    const failure = await world.client.createJob(request, as(account)).then(() => undefined, (error: unknown) => error);
    expect(detailOf(failure)).toMatchObject({ code: 3, detail: { reason: ErrorReason.INVALID_ARGUMENT, fieldPath } });
    expect((await world.client.listJobs({}, as(account))).retailJobs?.jobs).toEqual([]);
  });

  it('more than 100,000 items is INVALID_ARGUMENT (the message is several MB and still read)', async () => {
    const items = Array.from({ length: 100_001 }, () => productItem('B0BIGJOB01'));
    const failure = await world.client.createJob({ items }, as(newAccountId())).then(() => undefined, (error: unknown) => error);
    expect(detailOf(failure)).toMatchObject({ code: 3, detail: { reason: ErrorReason.INVALID_ARGUMENT, fieldPath: ['items'] } });
  });

  it('a cursor that is not one is INVALID_ARGUMENT; a malformed id NOT_FOUND', async () => {
    const account = await world.account(5);
    const { id } = (await world.client.createJob({ items: [productItem('B0CURSOR01')] }, as(account))).retailJob!;
    expect(detailOf(await world.client.listJobResults({ id, cursor: 'abc' }, as(account)).catch((e: unknown) => e))).toMatchObject({ code: 3, detail: { fieldPath: ['cursor'] } });
    expect(detailOf(await world.client.getJob({ id: 'nope' }, as(account)).catch((e: unknown) => e))).toMatchObject({ code: 3 });
    expect(detailOf(await world.client.getJob({ id: '00000000-0000-0000-0000-000000000000' }, as(account)).catch((e: unknown) => e))).toMatchObject({ code: 5 });
  });
});

describe('the end webhook', () => {
  it('is signed by the Standard Webhooks scheme with the secret shown once, and carries the final job', async () => {
    const account = await world.account(10);
    const url = `https://localhost:${world.receiver.port}/jobs-ended`;
    const created = (await world.client.createJob({ items: [productItem('B0HOOK0001'), productItem(NOT_FOUND_ASIN)], webhook: { url } }, as(account))).retailJob!;
    const secret = created.webhook?.secret;
    expect(secret).toMatch(/^whsec_/);
    expect((await world.client.getJob({ id: created.id }, as(account))).retailJob?.webhook?.secret).toBeUndefined();
    await until(() => world.delivered.some((r) => r.url === '/jobs-ended'), 'the webhook');
    const request = world.delivered.find((r) => r.url === '/jobs-ended')!;
    const payload = new Webhook(secret!).verify(request.body, request.headers) as { type: string; job: Record<string, unknown> };
    expect(payload).toMatchObject({ type: 'JOB_ENDED', job: { id: created.id, status: 'DONE', total: 2, done: 2, failed: 1, unitsCharged: 1 } });
    expect(request.headers['webhook-id']).toBe(`${created.id}:end`);
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(request.body, request.headers)).toThrow();
    await until(async () => (await world.client.getJob({ id: created.id }, as(account))).retailJob?.webhook?.deliveryStatus === WebhookDeliveryStatus.DELIVERED, 'delivered recorded');
    const stored = await world.store.db.query<{ webhook_secret: string }>(`SELECT webhook_secret FROM bulk_jobs WHERE id = $1`, [created.id]);
    expect(stored[0]!.webhook_secret).not.toContain(secret!.slice(6));
  });
});
