/**
 * Reviews past page 1 or filtered need a marketplace session (REVIEWS_SESSION_COOKIE). Without one
 * it is the deployment's configuration, not a transient fault: every interface answers 501 with
 * no Retry-After (nothing invites a retry), gRPC UNIMPLEMENTED with reason SESSION_REQUIRED, one
 * message that tells the operator what to set and the client what works, and nothing is charged.
 * Top reviews (page 1, no filter) still answer. The harness core runs without the cookie.
 */
import { ConnectError, Code } from '@connectrpc/connect';
import { Domain, ErrorReason, ReviewRating } from '@retail/contract';
import { SESSION_REQUIRED_MESSAGE } from '@retail/core/operations/reviews';
import { errorDetailOf, registryOperation } from '@retail/gateway-shared';
import { describe, expect, it } from 'vitest';
import { drivenStack } from './driven-stack.js';

const live = drivenStack();
const FIXTURE_PRODUCT = { asin: 'B0FXTUS001', domain: 'US' };

describe('filtered reviews without a marketplace session', () => {
  it('run against the real core, without REVIEWS_SESSION_COOKIE', () => {
    expect(live.stack.coreKind).toBe('real');
    expect(process.env.REVIEWS_SESSION_COOKIE ?? '').toBe('');
  });

  it.each([
    ['a star filter', { rating: 'FIVE_STAR' }],
    ['page 2', { page: 2 }],
    ['verified only', { onlyVerifiedReviews: true }],
  ])('%s: 501 on every interface with the same message, no Retry-After, free', async (_name, filter) => {
    for (const driver of live.drivers) {
      const res = await driver.call('GetProductReviews', { ...FIXTURE_PRODUCT, ...filter }, { key: live.key });
      expect(res.violations, driver.name).toEqual([]);
      expect({ status: res.status, message: res.errors?.[0]?.message, charged: res.unitsCharged }, driver.name).toEqual({
        status: 501,
        message: SESSION_REQUIRED_MESSAGE,
        charged: 0,
      });
      expect(res.headers.get('retry-after'), driver.name).toBeNull();
    }
  });

  it('says what to set and what works, and not to retry', () => {
    expect(SESSION_REQUIRED_MESSAGE).toContain('REVIEWS_SESSION_COOKIE');
    expect(SESSION_REQUIRED_MESSAGE).toMatch(/Top reviews work without it/);
    expect(SESSION_REQUIRED_MESSAGE).toMatch(/retrying will not help/);
  });

  it('over gRPC: UNIMPLEMENTED, reason SESSION_REQUIRED, no retry-after', async () => {
    try {
      await live.stack.core.callOperation(registryOperation('GetProductReviews'), { asin: 'B0FXTUS001', domain: Domain.US, rating: ReviewRating.FIVE_STAR }, { requestId: 'reviews-session' });
      expect.unreachable('no session is configured');
    } catch (err) {
      const error = ConnectError.from(err);
      expect(error.code).toBe(Code.Unimplemented);
      const detail = errorDetailOf(error);
      expect({ reason: detail?.reason, message: detail?.message, retryAfter: detail?.retryAfterSeconds }).toEqual({
        reason: ErrorReason.SESSION_REQUIRED,
        message: SESSION_REQUIRED_MESSAGE,
        retryAfter: undefined,
      });
    }
  });

  it('top reviews (page 1, no filter) still answer, charged 1', async () => {
    for (const driver of live.drivers) {
      const res = await driver.call('GetProductReviews', FIXTURE_PRODUCT, { key: live.key });
      expect({ status: res.status, charged: res.unitsCharged }, `${driver.name}: ${JSON.stringify(res.errors)}`).toEqual({ status: 200, charged: 1 });
    }
  });
});
