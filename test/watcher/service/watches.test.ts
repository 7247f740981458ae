/**
 * The WatchService's watch RPCs over real gRPC (Connect's client against the grpc-js server), on a
 * PGlite store and the in-memory job system: the lifecycle, the secret shown once, schedules kept in
 * step, account isolation, authentication and the refusals of bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@connectrpc/connect';
import { Domain, ErrorReason, WatchConditionType, WatchPausedReason, WatchStatus } from '@retail/contract';
import { openSecret } from '../../../watcher/src/webhooks/index.js';
import { as, eventually, failureOf, newAccount, newAsin, startTestService, type TestService } from './fixtures.js';

let t: TestService;
const MAX_WATCHES = 6;

beforeAll(async () => {
  t = await startTestService({ maxWatchesPerAccount: MAX_WATCHES });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const schedule = (asin: string) => t.jobs.queue({ name: 'watch-refresh', retryDelaysMs: [] }).getSchedule(`US:${asin}`);

describe('watch lifecycle', () => {
  it('creates, reads, updates, pauses, resumes and deletes a watch; the webhook secret is shown only when it is made', async () => {
    const account = newAccount();
    const asin = newAsin();
    const { retailWatch: created } = await t.client.createWatch({
      asin: ` ${asin.toLowerCase()} `,
      intervalSeconds: 900,
      conditions: [{ type: WatchConditionType.PRICE_AT_OR_BELOW, value: 9.5 }, { type: WatchConditionType.BACK_IN_STOCK }],
      webhook: { url: 'https://receiver.example.com/hooks' },
      label: 'desk lamp',
    }, as(account));
    expect(created).toMatchObject({ asin, domain: Domain.US, label: 'desk lamp', intervalSeconds: 900, status: WatchStatus.ACTIVE });
    expect(created!.conditions.map((c) => [c.type, c.value])).toEqual([[WatchConditionType.PRICE_AT_OR_BELOW, 9.5], [WatchConditionType.BACK_IN_STOCK, undefined]]);
    const secret = created!.webhook!.secret!;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const stored = await t.store.watches.webhookOf(created!.id);
    expect(stored!.secretCiphertext).not.toContain(secret.slice(6));
    expect(openSecret(t.keyring, stored!.secretCiphertext, created!.id)).toBe(secret);

    // The first snapshot is queued at once, and the product refreshes at the watch's interval.
    await eventually(() => t.refreshRuns.includes(`US:${asin}:now`));
    expect((await schedule(asin))?.everyMs).toBe(900_000);

    const { retailWatch: read } = await t.client.getWatch({ id: created!.id }, as(account));
    expect(read!.webhook).toMatchObject({ url: 'https://receiver.example.com/hooks' });
    expect(read!.webhook!.secret).toBeUndefined();

    const { retailWatch: paused } = await t.client.updateWatch({ id: created!.id, status: WatchStatus.PAUSED, label: '' }, as(account));
    expect(paused).toMatchObject({ status: WatchStatus.PAUSED, pausedReason: WatchPausedReason.USER });
    expect(paused!.label).toBeUndefined();
    expect(paused!.nextRefreshAt).toBeUndefined();
    expect(await schedule(asin)).toBeUndefined();

    const runsBefore = t.refreshRuns.length;
    const { retailWatch: resumed } = await t.client.updateWatch({
      id: created!.id, status: WatchStatus.ACTIVE, intervalSeconds: 3600, conditions: [{ type: WatchConditionType.OUT_OF_STOCK }], replaceConditions: true,
      webhook: { url: 'https://other.example.com/in' },
    }, as(account));
    expect(resumed).toMatchObject({ status: WatchStatus.ACTIVE, intervalSeconds: 3600 });
    expect(resumed!.pausedReason).toBeUndefined();
    expect(resumed!.conditions.map((c) => c.type)).toEqual([WatchConditionType.OUT_OF_STOCK]);
    const newSecret = resumed!.webhook!.secret!;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(secret);
    expect(openSecret(t.keyring, (await t.store.watches.webhookOf(created!.id))!.secretCiphertext, created!.id)).toBe(newSecret);
    await eventually(() => t.refreshRuns.length > runsBefore);
    expect((await schedule(asin))?.everyMs).toBe(3_600_000);

    const { retailWatch: cleared } = await t.client.updateWatch({ id: created!.id, replaceConditions: true, removeWebhook: true }, as(account));
    expect(cleared!.conditions).toEqual([]);
    expect(cleared!.webhook).toBeUndefined();

    const { retailWatch: deleted } = await t.client.deleteWatch({ id: created!.id }, as(account));
    expect(deleted).toMatchObject({ id: created!.id, deleted: true });
    expect(await schedule(asin)).toBeUndefined();
    for (const call of [t.client.getWatch({ id: created!.id }, as(account)), t.client.deleteWatch({ id: created!.id }, as(account))]) {
      const failure = await failureOf(call);
      expect(failure.code).toBe(Code.NotFound);
      expect(failure.detail).toMatchObject({ reason: ErrorReason.NOT_FOUND, fieldPath: ['id'] });
    }
  });

  it('pausing a watch paused for lack of units makes it the owner\'s pause, which a grant does not undo', async () => {
    const account = newAccount();
    const { retailWatch: watch } = await t.client.createWatch({ asin: newAsin() }, as(account));
    await t.store.watches.pause(account, 'INSUFFICIENT_UNITS', [watch!.id]);
    const { retailWatch: paused } = await t.client.updateWatch({ id: watch!.id, status: WatchStatus.PAUSED }, as(account));
    expect(paused).toMatchObject({ status: WatchStatus.PAUSED, pausedReason: WatchPausedReason.USER });
    expect(await t.store.watches.resume(account, 'INSUFFICIENT_UNITS')).toEqual([]);
  });

  it('lists the account\'s watches newest first, page by page, each exactly once', async () => {
    const account = newAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await t.client.createWatch({ asin: newAsin(), domain: Domain.DE }, as(account))).retailWatch!.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await t.client.listWatches({ limit: 2, ...(cursor && { cursor }) }, as(account))).retailWatches!;
      expect(page.watches.length).toBeLessThanOrEqual(2);
      seen.push(...page.watches.map((w) => w.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect((await t.client.listWatches({}, as(newAccount()))).retailWatches!.watches).toEqual([]);
  });

  it('caps the watches of one account with RESOURCE_EXHAUSTED (reason RATE_LIMITED) and says what to do', async () => {
    const account = newAccount();
    for (let i = 0; i < MAX_WATCHES; i++) await t.client.createWatch({ asin: newAsin() }, as(account));
    const failure = await failureOf(t.client.createWatch({ asin: newAsin() }, as(account)));
    expect(failure.code).toBe(Code.ResourceExhausted);
    expect(failure.detail?.reason).toBe(ErrorReason.RATE_LIMITED);
    expect(failure.message).toContain('delete one');
  });
});

describe('isolation and authentication', () => {
  it('answers NOT_FOUND for another account\'s watch on every RPC that names it, and changes nothing', async () => {
    const owner = newAccount();
    const { retailWatch: watch } = await t.client.createWatch({ asin: newAsin(), label: 'mine' }, as(owner));
    const stranger = as(newAccount());
    const calls = [
      t.client.getWatch({ id: watch!.id }, stranger),
      t.client.updateWatch({ id: watch!.id, label: 'theirs' }, stranger),
      t.client.deleteWatch({ id: watch!.id }, stranger),
      t.client.listWatchEvents({ watchId: watch!.id }, stranger),
      t.client.listWebhookDeliveries({ watchId: watch!.id }, stranger),
      t.client.redeliverWebhook({ watchId: watch!.id, deliveryId: '1' }, stranger),
    ];
    for (const call of calls) {
      const failure = await failureOf(call);
      expect(failure.code).toBe(Code.NotFound);
      expect(failure.detail?.reason).toBe(ErrorReason.NOT_FOUND);
    }
    expect((await t.client.getWatch({ id: watch!.id }, as(owner))).retailWatch!.label).toBe('mine');
  });

  it('refuses calls without the service token or without an account with UNAUTHENTICATED and its ErrorDetail', async () => {
    const refusals = [
      t.client.listWatches({}, { headers: { 'x-retail-account': newAccount() } }),
      t.client.listWatches({}, as(newAccount(), 'not-the-token')),
      t.client.listWatches({}, { headers: { authorization: 'Bearer watcher-test-token' } }),
      t.client.listWatches({}, as('has spaces')),
    ];
    for (const call of refusals) {
      const failure = await failureOf(call);
      expect(failure.code).toBe(Code.Unauthenticated);
      expect(failure.detail?.reason).toBe(ErrorReason.UNAUTHENTICATED_SERVICE);
    }
  });
});

describe('bad input', () => {
  const account = newAccount();
  const cases: Array<[string, () => Promise<unknown>, string[]]> = [
    ['no lookup key', () => t.client.createWatch({ intervalSeconds: 900 }, as(account)), ['asin']],
    ['two lookup keys', () => t.client.createWatch({ asin: 'B000000001', gtin: '4006381333931' }, as(account)), ['gtin']],
    ['a malformed asin', () => t.client.createWatch({ asin: 'B0-SHORT' }, as(account)), ['asin']],
    ['an interval below 15 minutes', () => t.client.createWatch({ asin: newAsin(), intervalSeconds: 60 }, as(account)), ['interval_seconds']],
    ['a price condition without its value', () => t.client.createWatch({ asin: newAsin(), conditions: [{ type: WatchConditionType.PRICE_AT_OR_BELOW }] }, as(account)), ['conditions', '0', 'value']],
    ['an unspecified condition type', () => t.client.createWatch({ asin: newAsin(), conditions: [{ type: WatchConditionType.UNSPECIFIED }] }, as(account)), ['conditions', '0', 'type']],
    ['a percentage above 100', () => t.client.createWatch({ asin: newAsin(), conditions: [{ type: WatchConditionType.PRICE_DROP_PERCENT, value: 150 }] }, as(account)), ['conditions', '0', 'value']],
    ['a webhook over http', () => t.client.createWatch({ asin: newAsin(), webhook: { url: 'http://receiver.example.com/' } }, as(account)), ['webhook', 'url']],
    ['a webhook to loopback', () => t.client.createWatch({ asin: newAsin(), webhook: { url: 'https://127.0.0.1:8443/' } }, as(account)), ['webhook', 'url']],
    ['a webhook to the metadata endpoint', () => t.client.createWatch({ asin: newAsin(), webhook: { url: 'https://169.254.169.254/' } }, as(account)), ['webhook', 'url']],
    ['a label over 200 characters', () => t.client.createWatch({ asin: newAsin(), label: 'x'.repeat(201) }, as(account)), ['label']],
    ['a malformed watch id', () => t.client.getWatch({ id: 'nope' }, as(account)), ['id']],
    ['a list cursor that is not one', () => t.client.listWatches({ cursor: 'garbage' }, as(account)), ['cursor']],
    ['a page size above 200', () => t.client.listWatches({ limit: 500 }, as(account)), ['limit']],
    ['conditions without replace_conditions', () => t.client.updateWatch({ id: '00000000-0000-4000-8000-000000000000', conditions: [{ type: WatchConditionType.ANY_CHANGE }] }, as(account)), ['replace_conditions']],
    ['a new webhook and remove_webhook together', () => t.client.updateWatch({ id: '00000000-0000-4000-8000-000000000000', webhook: { url: 'https://a.example.com/' }, removeWebhook: true }, as(account)), ['remove_webhook']],
    ['an unspecified status', () => t.client.updateWatch({ id: '00000000-0000-4000-8000-000000000000', status: WatchStatus.UNSPECIFIED }, as(account)), ['status']],
    ['an events cursor that is not an id', () => t.client.listWatchEvents({ cursor: 'x1' }, as(account)), ['cursor']],
    ['a delivery id that is not a number', () => t.client.redeliverWebhook({ watchId: '00000000-0000-4000-8000-000000000000', deliveryId: 'abc' }, as(account)), ['delivery_id']],
  ];
  it.each(cases)('refuses %s with INVALID_ARGUMENT naming the field', async (_name, call, fieldPath) => {
    const failure = await failureOf(call());
    expect(failure.code).toBe(Code.InvalidArgument);
    expect(failure.detail).toMatchObject({ reason: ErrorReason.INVALID_ARGUMENT, fieldPath });
    expect(failure.message.length).toBeGreaterThan(5);
  });

  it('creates nothing when a create is refused', async () => {
    const quiet = newAccount();
    await failureOf(t.client.createWatch({ asin: newAsin(), intervalSeconds: 10 }, as(quiet)));
    expect((await t.client.listWatches({}, as(quiet))).retailWatches!.watches).toEqual([]);
  });
});
