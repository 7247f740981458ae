import { registryOperation } from '@retail/gateway-shared/registry';
import { describe, expect, it } from 'vitest';
import { UsageError } from './exit-codes.js';
import { buildRequest } from './request.js';

describe('buildRequest', () => {
  it('puts a GET operation\'s parameters in the query string as typed', () => {
    expect(buildRequest(registryOperation('SearchProducts'), { searchTerm: 'espresso machine', conditions: 'NEW,USED', page: '2' })).toEqual({
      method: 'GET',
      pathAndQuery: '/api/retail/search?searchTerm=espresso+machine&page=2&conditions=NEW%2CUSED',
    });
  });

  it('puts path parameters in the path and types the JSON body by each parameter\'s kind', () => {
    const request = buildRequest(registryOperation('UpdateWatch'), { id: 'a/b', intervalSeconds: '7200', replaceConditions: true, conditions: '[{"type":"BACK_IN_STOCK"}]', label: '42' });
    expect(request).toEqual({
      method: 'PATCH',
      pathAndQuery: '/api/retail/watches/a%2Fb',
      body: { label: '42', intervalSeconds: 7200, conditions: [{ type: 'BACK_IN_STOCK' }], replaceConditions: true },
    });
  });

  it('sends a value that does not read as its kind as typed, for the gateway to name, and refuses JSON that is not JSON', () => {
    expect(buildRequest(registryOperation('UpdateWatch'), { id: 'x', intervalSeconds: 'hourly' }).body).toEqual({ intervalSeconds: 'hourly' });
    expect(() => buildRequest(registryOperation('CreateWatch'), { asin: 'B0FXTDE001', webhook: '{' })).toThrow(UsageError);
  });

  it('sends no body with a DELETE that has only path parameters', () => {
    expect(buildRequest(registryOperation('DeleteWatch'), { id: 'w1' })).toEqual({ method: 'DELETE', pathAndQuery: '/api/retail/watches/w1' });
  });
});
