import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ErrorReason } from '@retail/contract';
import { classifyUpstream, outcomeError } from './classify.js';

const fixturesDir = fileURLToPath(new URL('../../../test/fixtures/pages/', import.meta.url));
const fixture = (path: string) => readFileSync(join(fixturesDir, 'pages', path), 'utf8');
const URL_ = 'https://www.amazon.com/dp/B000000000';

describe('classifyUpstream on the project fixtures', () => {
  it('a product page is ok', () => {
    expect(classifyUpstream(200, fixture('com/product/dp-B0FXTUS001-modern-espresso.html'), URL_).kind).toBe('ok');
    expect(classifyUpstream(200, fixture('com/product/dp-0316769487-book-paperback.html'), URL_).kind).toBe('ok');
  });
  it('a captcha is blocked whatever the status', () => {
    for (const status of [200, 503]) {
      expect(classifyUpstream(status, fixture('com/blocked/captcha-validatecaptcha.html'), URL_).kind).toBe('blocked');
    }
  });
  it('a sign-in wall is blocked, by its form or by a redirect to /ap/signin', () => {
    expect(classifyUpstream(200, fixture('com/blocked/signin-wall.html'), URL_).kind).toBe('blocked');
    expect(classifyUpstream(200, '<html></html>', 'https://www.amazon.com/ap/signin?openid.return_to=x').kind).toBe('blocked');
  });
  it('the 404 dogs page is not found, also when served with 200', () => {
    expect(classifyUpstream(404, fixture('com/blocked/not-found-dogs.html'), URL_).kind).toBe('not-found');
    expect(classifyUpstream(200, fixture('com/blocked/not-found-dogs.html'), URL_).kind).toBe('not-found');
  });
  it('5xx, other statuses and empty bodies are upstream errors', () => {
    expect(classifyUpstream(500, '<html>oops</html>', URL_).kind).toBe('error');
    expect(classifyUpstream(403, '<html>forbidden</html>', URL_).kind).toBe('error');
    expect(classifyUpstream(200, '   ', URL_).kind).toBe('error');
  });
  it('maps each class to its reason', () => {
    expect(outcomeError({ kind: 'ok' }, 'product', URL_)).toBeUndefined();
    expect(outcomeError({ kind: 'blocked', why: 'x' }, 'product', URL_)?.reason).toBe(ErrorReason.UPSTREAM_BLOCKED);
    expect(outcomeError({ kind: 'not-found', why: 'x' }, 'product', URL_)?.reason).toBe(ErrorReason.NOT_FOUND);
    expect(outcomeError({ kind: 'error', why: 'x' }, 'product', URL_)?.reason).toBe(ErrorReason.UPSTREAM_ERROR);
  });
});

// Real blocked and error pages, and every real product page (which must never look blocked).
const corpus = process.env.RETAIL_CORPUS ? resolve(process.env.RETAIL_CORPUS) : undefined;
const haveCorpus = corpus !== undefined && existsSync(join(corpus, 'index.json'));
describe.skipIf(!haveCorpus)('classifyUpstream on the corpus (RETAIL_CORPUS)', () => {
  const entries = haveCorpus
    ? (JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as { id: string; operation: string; status: number; page: string }[])
    : [];
  const read = (page: string) => readFileSync(join(corpus!, page), 'utf8');
  it('every product(blocked) page is blocked', () => {
    const blocked = entries.filter((e) => e.operation === 'product(blocked)');
    expect(blocked.length).toBeGreaterThan(0);
    for (const e of blocked) expect([e.id, classifyUpstream(e.status, read(e.page), URL_).kind]).toEqual([e.id, 'blocked']);
  });
  it('the product(error) dogs page is an upstream error', () => {
    for (const e of entries.filter((x) => x.operation === 'product(error)')) {
      expect([e.id, classifyUpstream(e.status, read(e.page), URL_).kind]).toEqual([e.id, 'error']);
    }
  });
  it('no real page of any other kind is mistaken for a block or an error', () => {
    for (const e of entries.filter((x) => !x.operation.startsWith('product('))) {
      expect([e.id, classifyUpstream(e.status, read(e.page), URL_).kind]).toEqual([e.id, 'ok']);
    }
  });
});
if (!haveCorpus) console.warn('classify.test: corpus cases skipped: RETAIL_CORPUS is not set or has no index.json');
