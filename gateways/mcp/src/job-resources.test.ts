import { describe, expect, it } from 'vitest';
import { parseResultsUri, resultsPage, resultsUri } from './job-resources.js';
import { taskOf } from './job-tasks.js';

const ID = '144f34bb-d6fc-4600-91fa-4e47368f5f67';

describe('job results as resources', () => {
  it('reads back the job, cursor and page size its URIs name', () => {
    expect(parseResultsUri(resultsUri(ID))).toEqual({ id: ID });
    expect(parseResultsUri(resultsUri(ID, 'a=b&c', '5'))).toEqual({ id: ID, cursor: 'a=b&c', limit: '5' });
  });

  it('refuses any other URI', () => {
    for (const uri of ['retail://jobs/x/items', 'https://jobs/x/results', 'retail://watches/x/results', 'retail://jobs//results', 'not a uri']) expect(parseResultsUri(uri)).toBeUndefined();
  });

  it('names the next page with the same page size, and none after the last', () => {
    const page = resultsPage(resultsUri(ID, undefined, '5'), { id: ID, limit: '5' }, { results: [], nextCursor: 'n1' });
    expect(page._meta).toEqual({ nextUri: resultsUri(ID, 'n1', '5') });
    expect(JSON.parse((page.contents[0] as { text: string }).text)).toEqual({ data: { retailJobResults: { results: [], nextCursor: 'n1' } }, nextUri: resultsUri(ID, 'n1', '5') });
    expect(resultsPage(resultsUri(ID), { id: ID }, { results: [] })._meta).toBeUndefined();
  });
});

describe('a job as a task', () => {
  const job = { id: ID, total: 3, done: 1, failed: 0, unitsCharged: 1, createdAt: '2026-11-28T10:00:00.000Z' };
  it('is working while queued or running, its progress in the status message, kept at least its retention from now', () => {
    const week = 7 * 86_400;
    const now = Date.parse(job.createdAt) + 90_000;
    expect(taskOf({ ...job, status: 'RUNNING', retentionSeconds: week }, now)).toMatchObject({ taskId: ID, status: 'working', statusMessage: 'RUNNING: 1 of 3 items done, 0 failed, 1 units charged', ttl: 90_000 + week * 1000, lastUpdatedAt: job.createdAt });
    expect(taskOf({ ...job, status: 'QUEUED', retentionSeconds: week }).status).toBe('working');
    // A watcher that does not say its retention: unknown, as before.
    expect(taskOf({ ...job, status: 'RUNNING' }, now).ttl).toBeNull();
  });
  it('ends as the job ends: completed, cancelled, or failed with its stop reason', () => {
    const ended = { ...job, finishedAt: '2026-11-28T10:01:00.000Z', expiresAt: '2026-12-05T10:01:00.000Z' };
    expect(taskOf({ ...ended, status: 'DONE' })).toMatchObject({ status: 'completed', lastUpdatedAt: ended.finishedAt, ttl: Date.parse(ended.expiresAt) - Date.parse(job.createdAt) });
    expect(taskOf({ ...ended, status: 'CANCELLED' }).status).toBe('cancelled');
    expect(taskOf({ ...ended, status: 'FAILED', stopReason: 'INSUFFICIENT_UNITS' })).toMatchObject({ status: 'failed', statusMessage: expect.stringMatching(/^FAILED \(INSUFFICIENT_UNITS\): /) });
  });
});
