/**
 * Bulk-job storage on every engine behind the `Database` seam (PGlite and real PostgreSQL run this
 * same suite): creation with chunks and refused items, account isolation, results written exactly
 * once with their counters, the chunk states and the job's end (exactly once), cancel, result pages
 * in index order, retention.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidCursorError, openWatchStore, resultCursor, type Database, type JobDraft, type WatchStore } from '../../../watcher/src/store/index.js';
import { fakeClock } from './store-suite.js';

const DAY = 86_400_000;
const bytes = (text: string) => new TextEncoder().encode(text);
const result = (index: number, ok: boolean) => ({ index, ok, result: bytes(`r${index}:${ok}`) });

/** A job of `total` items in chunks of `size`, the items at `rejected` refused up front. */
function draft(accountId: string, total: number, size: number, rejected: number[] = []): JobDraft {
  const runnable = Array.from({ length: total }, (_, i) => i).filter((i) => !rejected.includes(i));
  const chunks = [];
  for (let i = 0; i < runnable.length; i += size) chunks.push({ indexes: runnable.slice(i, i + size), items: bytes(`items ${i}`) });
  return { id: randomUUID(), accountId, total, chunks, rejected: rejected.map((i) => result(i, false)) };
}

export function jobStoreSuite(engine: string, openDatabase: () => Promise<Database>): void {
  describe(`bulk job store (${engine})`, () => {
    const clock = fakeClock();
    let store: WatchStore;
    beforeAll(async () => {
      store = await openWatchStore(await openDatabase(), { clock: clock.now, jobResultRetentionDays: 3 });
    });
    afterAll(async () => store?.close());

    it('stores a job with its chunks and refused items, visible to its account only', async () => {
      const owner = `acct-${randomUUID()}`;
      const job = await store.jobs.create(draft(owner, 10, 4, [2, 7]));
      expect(job).toMatchObject({ accountId: owner, status: 'QUEUED', total: 10, done: 2, failed: 2, unitsCharged: 0, chunkCount: 2, chunksFinished: 0 });
      expect(job.expiresAt).toBeUndefined();
      expect(await store.jobs.get(owner, job.id)).toEqual(job);
      expect(await store.jobs.get('someone-else', job.id)).toBeNull();
      expect(await store.jobs.get(owner, 'not-a-uuid')).toBeNull();
      expect(await store.jobs.stop('someone-else', job.id, 'CANCELLED')).toBeNull();
      expect((await store.jobResults.after(job.id, -1, 10)).map((r) => r.index)).toEqual([2, 7]);
    });

    it('a job whose every item was refused has ended at once: DONE, with its expiry', async () => {
      const job = await store.jobs.create(draft(`acct-${randomUUID()}`, 2, 4, [0, 1]));
      expect(job).toMatchObject({ status: 'DONE', done: 2, failed: 2, chunkCount: 0, finishedAt: clock.now(), expiresAt: new Date(clock.now().getTime() + 3 * DAY) });
    });

    it('writes each result once, counts it once, settles each chunk once and ends the job exactly once', async () => {
      const owner = `acct-${randomUUID()}`;
      const job = await store.jobs.create(draft(owner, 6, 3));
      const taken = await store.jobChunks.take(job.id, 0);
      expect(taken.kind).toBe('run');
      if (taken.kind !== 'run') return;
      expect(taken.work.indexes).toEqual([0, 1, 2]);
      expect(taken.work.job.status).toBe('RUNNING');
      expect(await store.jobChunks.writeResults(job.id, [result(0, true), result(1, false)])).toBe(2);
      // A re-run after a crash writes the same results again and one more: only the new one counts.
      expect(await store.jobChunks.writeResults(job.id, [result(0, false), result(1, false), result(2, true)])).toBe(1);
      const again = await store.jobChunks.take(job.id, 0);
      expect(again.kind === 'run' && [...again.work.answered].sort()).toEqual([0, 1, 2]);
      const settling = await store.jobChunks.markSettling(job.id, 0, 'hold-a');
      expect(settling).toMatchObject({ holdId: 'hold-a', successes: 2 });
      expect(await store.jobChunks.markSettling(job.id, 0, 'hold-b')).toBeNull();
      expect(await store.jobChunks.take(job.id, 0)).toEqual({ kind: 'settling', settling, accountId: owner, indexes: [0, 1, 2] });
      expect((await store.jobResults.successesAmong(job.id, [0, 1, 2])).map((r) => r.index)).toEqual([0, 2]);
      expect(await store.jobChunks.markSettled(job.id, 0, 2)).toEqual({ ended: null });
      expect(await store.jobChunks.markSettled(job.id, 0, 2)).toBeNull();
      expect(await store.jobChunks.take(job.id, 0)).toEqual({ kind: 'finished' });

      await store.jobChunks.take(job.id, 1);
      await store.jobChunks.writeResults(job.id, [3, 4, 5].map((i) => result(i, true)));
      await store.jobChunks.markSettling(job.id, 1, 'hold-c');
      const last = await store.jobChunks.markSettled(job.id, 1, 3);
      expect(last?.ended).toMatchObject({ status: 'DONE', done: 6, failed: 1, unitsCharged: 5, chunksFinished: 2, finishedAt: clock.now() });
      expect((await store.jobs.get(owner, job.id))?.expiresAt).toEqual(new Date(clock.now().getTime() + 3 * DAY));
    });

    it('cancel is visible at once, skips chunks not taken, and the job ends when its running chunk finishes', async () => {
      const owner = `acct-${randomUUID()}`;
      const job = await store.jobs.create(draft(owner, 9, 3));
      await store.jobChunks.take(job.id, 0);
      const cancelled = await store.jobs.stop(owner, job.id, 'CANCELLED');
      expect(cancelled?.job).toMatchObject({ status: 'CANCELLED', chunksFinished: 2, finishedAt: clock.now() });
      expect(cancelled?.ended).toBeNull();
      expect(await store.jobChunks.take(job.id, 1)).toEqual({ kind: 'finished' });
      // A second cancel changes nothing.
      expect((await store.jobs.stop(owner, job.id, 'CANCELLED'))?.job).toEqual(cancelled?.job);
      await store.jobChunks.writeResults(job.id, [0, 1, 2].map((i) => result(i, true)));
      await store.jobChunks.markSettling(job.id, 0, 'hold-d');
      const ended = await store.jobChunks.markSettled(job.id, 0, 3);
      expect(ended?.ended).toMatchObject({ status: 'CANCELLED', done: 3, unitsCharged: 3, chunksFinished: 3 });
    });

    it('a job stopped for lack of units records why; the chunk that found out is skipped', async () => {
      const owner = `acct-${randomUUID()}`;
      const job = await store.jobs.create(draft(owner, 4, 2));
      await store.jobChunks.take(job.id, 0);
      const stopped = await store.jobs.stop(null, job.id, 'FAILED', 'INSUFFICIENT_UNITS');
      expect(stopped?.job).toMatchObject({ status: 'FAILED', stopReason: 'INSUFFICIENT_UNITS' });
      const skipped = await store.jobChunks.skip(job.id, 0);
      expect(skipped?.ended).toMatchObject({ status: 'FAILED', chunksFinished: 2, done: 0 });
      expect(await store.jobs.openChunks()).not.toContainEqual(expect.objectContaining({ jobId: job.id }));
    });

    it('pages results in index order after a cursor, stable while more are written', async () => {
      const job = await store.jobs.create(draft(`acct-${randomUUID()}`, 8, 8));
      await store.jobChunks.writeResults(job.id, [5, 1, 3].map((i) => result(i, true)));
      expect((await store.jobResults.after(job.id, -1, 2)).map((r) => r.index)).toEqual([1, 3]);
      await store.jobChunks.writeResults(job.id, [0, 2].map((i) => result(i, true)));
      expect((await store.jobResults.after(job.id, 3, 10)).map((r) => r.index)).toEqual([5]);
      expect(new TextDecoder().decode((await store.jobResults.after(job.id, 4, 1))[0]!.result)).toBe('r5:true');
      expect(resultCursor('3')).toBe(3);
      for (const bad of ['-1', '01', 'x', '1e3', '9999999999']) expect(() => resultCursor(bad)).toThrow(InvalidCursorError);
    });

    it('lists the account\'s jobs newest first, page by page', async () => {
      const owner = `acct-${randomUUID()}`;
      const ids = [];
      for (let i = 0; i < 3; i++) {
        clock.advance(1000);
        ids.push((await store.jobs.create(draft(owner, 1, 1))).id);
      }
      const first = await store.jobs.list(owner, { limit: 2 });
      expect(first.items.map((j) => j.id)).toEqual([ids[2], ids[1]]);
      const second = await store.jobs.list(owner, { limit: 2, cursor: first.nextCursor! });
      expect(second).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null });
    });

    it('deletes ended jobs with their results once their expiry has passed, and only those', async () => {
      const owner = `acct-${randomUUID()}`;
      const ended = await store.jobs.create(draft(owner, 1, 1, [0]));
      const open = await store.jobs.create(draft(owner, 1, 1));
      clock.advance(3 * DAY + 1);
      expect(await store.jobs.deleteExpired()).toBeGreaterThanOrEqual(1);
      expect(await store.jobs.get(owner, ended.id)).toBeNull();
      expect(await store.jobResults.after(ended.id, -1, 10)).toEqual([]);
      expect(await store.jobs.get(owner, open.id)).not.toBeNull();
      expect(await store.jobs.openChunks()).toContainEqual({ jobId: open.id, chunk: 0 });
    });
  });
}
