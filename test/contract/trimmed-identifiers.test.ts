/**
 * One rule for the lookup identifiers: surrounding whitespace is not part of an asin, url or gtin
 * (TRIMMED_PARAMETERS in proto/src/parameter-rules.ts). The same lookup with and without spaces
 * around its key answers alike on REST, GraphQL, MCP and straight over gRPC.
 */
import { ConnectError } from '@connectrpc/connect';
import { Domain, ErrorReason } from '@retail/contract';
import { errorDetailOf, registryOperation } from '@retail/gateway-shared';
import { describe, expect, it } from 'vitest';
import { drivenStack } from './driven-stack.js';

const live = drivenStack();

const LOOKUPS: ReadonlyArray<readonly [parameter: 'asin' | 'url' | 'gtin', value: string]> = [
  ['asin', 'B08N5WRWNW'],
  ['url', 'https://www.amazon.com/dp/B08N5WRWNW'],
  ['gtin', '4006381333931'],
];
const SPACES = ' \t';

/** What an interface answers, reduced to what must not depend on surrounding spaces. */
async function answers(parameter: string, value: string): Promise<Record<string, unknown>> {
  const params = { [parameter]: value, ...(parameter === 'url' ? {} : { domain: 'US' }) };
  const out: Record<string, unknown> = {};
  for (const driver of live.drivers) {
    const res = await driver.call('GetProduct', params, { key: live.key });
    out[driver.name] = { status: res.status, message: res.errors?.[0]?.message, asin: (res.data?.product as { asin?: string } | undefined)?.asin };
  }
  if (live.stack.coreKind === 'real') {
    try {
      const grpcParams = { [parameter]: value, ...(parameter === 'url' ? {} : { domain: Domain.US }) };
      await live.stack.core.callOperation(registryOperation('GetProduct'), grpcParams, { requestId: `trim-${parameter}` });
      out.grpc = 'OK';
    } catch (err) {
      const detail = errorDetailOf(ConnectError.from(err));
      out.grpc = detail ? `${ErrorReason[detail.reason]}: ${detail.message}` : String(err);
    }
  }
  return out;
}

describe('lookup identifiers ignore surrounding whitespace on every interface', () => {
  it('runs against the real core, so gRPC is compared too', () => {
    expect(live.stack.coreKind).toBe('real');
  });

  it.each(LOOKUPS)('%s', async (parameter, value) => {
    const plain = await answers(parameter, value);
    for (const driver of live.drivers) expect((plain[driver.name] as { status: number }).status, JSON.stringify(plain)).not.toBe(400);
    expect(await answers(parameter, `${SPACES}${value}${SPACES}`)).toEqual(plain);
  });
});
