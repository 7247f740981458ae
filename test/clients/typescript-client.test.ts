/**
 * @retail/client against the real core and watcher of the one-process stack (the core reading the
 * replay server's fixture pages): typed calls, every failure a RetailError carrying the server's
 * ErrorDetail from `grpc-status-details-bin`, and the README's example run as a user would run it.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Code } from '@connectrpc/connect';
import { AddressError, Domain, ErrorReason, RetailError, createRetailClient, createWatchClient } from '@retail/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type OneProcess, startOneProcess } from '../harness/one-process.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = 'clients/typescript/examples/get-product.ts';
const SERVICE_TOKEN = 'typescript-client-test-token';

let running: OneProcess;

beforeAll(async () => {
  running = await startOneProcess({ SERVICE_TOKEN });
});
afterAll(async () => {
  await running?.stop();
});

const retail = () => createRetailClient({ address: running.stack.coreAddress, serviceToken: SERVICE_TOKEN });

describe('createRetailClient', () => {
  it('returns typed records from the core', async () => {
    const { retailProduct, meta } = await retail().getProduct({ asin: 'B0FXTDE001', domain: Domain.DE });
    expect(retailProduct?.asin).toBe('B0FXTDE001');
    expect(retailProduct?.price?.currency).toBe('EUR');
    // The marketplace's own display string, no-break space included (docs/contract.md, Wire JSON).
    expect(retailProduct?.price?.display).toBe('1.226,00\u00a0€');
    expect(meta?.retrievedAt).toBeDefined();
  });

  it('rejects a product the marketplace lacks with a RetailError of reason NOT_FOUND', async () => {
    const error = await retail().getProduct({ asin: 'B0NOTFOUND', domain: Domain.US }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetailError);
    const failure = error as RetailError;
    expect(failure.code).toBe(Code.NotFound);
    expect(failure.reason).toBe(ErrorReason.NOT_FOUND);
    expect(failure.reasonName).toBe('NOT_FOUND');
    expect(failure.message).toBe(failure.detail?.message);
  });

  it('names the offending field of an invalid request in fieldPath', async () => {
    const error = (await retail().getProductOffers({ asin: 'B0FXTDE001', domain: Domain.DE, page: 500n }).catch((e: unknown) => e)) as RetailError;
    expect(error.reason).toBe(ErrorReason.INVALID_ARGUMENT);
    expect(error.code).toBe(Code.InvalidArgument);
    expect(error.fieldPath).toEqual(['page']);
    expect(error.message).toMatch(/page/);
  });

  it('rejects a wrong service token with reason UNAUTHENTICATED_SERVICE', async () => {
    const client = createRetailClient({ address: running.stack.coreAddress, serviceToken: 'not-the-token' });
    const error = (await client.getProduct({ asin: 'B0FXTDE001', domain: Domain.DE }).catch((e: unknown) => e)) as RetailError;
    expect(error).toBeInstanceOf(RetailError);
    expect(error.reason).toBe(ErrorReason.UNAUTHENTICATED_SERVICE);
    expect(error.code).toBe(Code.Unauthenticated);
  });

  it('turns a failure without a detail (nothing listening) into a RetailError of reason UNSPECIFIED', async () => {
    const client = createRetailClient({ address: '127.0.0.1:1', serviceToken: SERVICE_TOKEN, deadlineMs: 2_000 });
    const error = (await client.getProduct({ asin: 'B0FXTDE001' }).catch((e: unknown) => e)) as RetailError;
    expect(error).toBeInstanceOf(RetailError);
    expect(error.reason).toBe(ErrorReason.UNSPECIFIED);
    expect(error.detail).toBeUndefined();
    expect(error.code).toBe(Code.Unavailable);
  });

  it('refuses an address that is not host:port or an http(s) origin before connecting', () => {
    for (const address of ['ftp://core:50051', 'http://user:pw@core:50051', 'http://core:50051/path', 'core', 'core:70000']) {
      expect(() => createRetailClient({ address, serviceToken: SERVICE_TOKEN }), address).toThrow(AddressError);
    }
  });
});

describe('createWatchClient', () => {
  it('calls the watcher for one account and decodes its errors the same way', async () => {
    const watches = createWatchClient({ address: running.stack.watcherAddress!, serviceToken: SERVICE_TOKEN, accountId: 'acct-client-test' });
    const { retailWatches } = await watches.listWatches({});
    expect(retailWatches?.watches).toEqual([]);
    const error = (await watches.getWatch({ id: '00000000-0000-4000-8000-000000000000' }).catch((e: unknown) => e)) as RetailError;
    expect(error).toBeInstanceOf(RetailError);
    expect(error.reason).toBe(ErrorReason.NOT_FOUND);
  });
});

describe('the README example', () => {
  it('is the example file, word for word', () => {
    const readme = readFileSync(`${ROOT}/clients/typescript/README.md`, 'utf8');
    expect(readme).toContain(readFileSync(`${ROOT}/${EXAMPLE}`, 'utf8'));
  });

  it('prints a product, a missing product and an invalid ASIN as documented', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', EXAMPLE, 'B0FXTDE001', 'B0MISSING1', 'bad'], {
      cwd: ROOT,
      env: { ...process.env, RETAIL_CORE_ADDRESS: running.stack.coreAddress, SERVICE_TOKEN },
      timeout: 30_000,
    });
    expect(stdout.trim().split('\n')).toEqual([
      'B0FXTDE001: Acme Kaffeevollautomat KV-900 mit Milchsystem, 1,8 l (1.226,00\u00a0€)',
      'B0MISSING1: not on the marketplace',
      'bad: INVALID_ARGUMENT asin must match ^[A-Za-z0-9]{10}$ [asin]',
    ]);
  });
});
