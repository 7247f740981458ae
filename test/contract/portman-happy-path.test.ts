import { describe, expect, it } from 'vitest';
import { happyPathConfig } from './portman-happy-path.js';

describe('the Portman happy-path configuration', () => {
  const base = { tests: { contractTests: [] }, globals: { securityOverwrites: { apiKey: { value: '{{apiKey}}' } } } };
  const config = happyPathConfig(base) as {
    overwrites: { openApiOperationId: string; overwriteRequestQueryParams?: { key: string; value: string; disable: boolean }[]; overwriteRequestPathVariables?: { key: string; value: string }[] }[];
    assignVariables: { openApiOperationId: string; collectionVariables: { responseBodyProp: string; name: string }[] }[];
    globals: { orderOfOperations: string[]; securityOverwrites: unknown };
    tests: unknown;
  };
  const overwrite = (id: string) => config.overwrites.find((o) => o.openApiOperationId === id);

  it('switches on the lookup key of a working request, which Portman would leave out as optional', () => {
    expect(overwrite('get_RetailProduct')?.overwriteRequestQueryParams).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'asin', disable: false })]));
    expect(overwrite('get_RetailBestSellers')?.overwriteRequestQueryParams?.map((q) => q.key)).toContain('categoryId');
  });

  it('names the watch and the job it created and the delivery it listed, reading their ids from those answers', () => {
    expect(config.assignVariables).toEqual(expect.arrayContaining([
      { openApiOperationId: 'create_RetailWatch', collectionVariables: [{ responseBodyProp: 'data.retailWatch.id', name: 'retailWatchId' }] },
      { openApiOperationId: 'list_RetailWebhookDeliveries', collectionVariables: [{ responseBodyProp: 'data.retailWebhookDeliveries.deliveries[0].id', name: 'deliveriesId' }] },
      { openApiOperationId: 'create_RetailJob', collectionVariables: [{ responseBodyProp: 'data.retailJob.id', name: 'retailJobId' }] },
    ]));
    expect(overwrite('redeliver_RetailWebhook')?.overwriteRequestPathVariables).toEqual([
      { key: 'watchId', value: '{{retailWatchId}}', overwrite: true },
      { key: 'deliveryId', value: '{{deliveriesId}}', overwrite: true },
    ]);
    expect(overwrite('get_RetailJob')?.overwriteRequestPathVariables).toEqual([{ key: 'id', value: '{{retailJobId}}', overwrite: true }]);
    // The job routes beyond the registry name the same job.
    for (const id of ['download_RetailJobResults', 'stream_RetailJobProgress']) {
      expect(overwrite(id)?.overwriteRequestPathVariables).toEqual([{ key: 'id', value: '{{retailJobId}}', overwrite: true }]);
    }
    // The download resumes at the example job's last result: one NDJSON line, one JSON document.
    expect(overwrite('download_RetailJobResults')?.overwriteRequestQueryParams).toEqual([{ key: 'cursor', value: '1', overwrite: true, disable: false }]);
  });

  it('creates first, deletes last, and keeps the runner\'s own settings', () => {
    expect(config.globals.orderOfOperations[0]).toBe('POST::/api/retail/watches');
    expect(config.globals.orderOfOperations.slice(-2)).toEqual(['DELETE::/api/retail/watches/{id}', 'DELETE::/api/retail/jobs/{id}']);
    expect(config.globals.securityOverwrites).toEqual(base.globals.securityOverwrites);
    expect(config.tests).toEqual(base.tests);
  });
});
