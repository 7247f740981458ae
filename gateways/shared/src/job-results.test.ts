/**
 * A job's stored result as every interface shows it: the batch entry of the same item (status,
 * data, errors and their paths), the paged reads rendered through the one wire override (REST,
 * GraphQL, MCP with compact records), the schema that describes them, and the CSV row.
 */
import { create } from '@bufbuild/protobuf';
import {
  BatchItemResultSchema, ErrorDetailSchema, ErrorReason, JobService, ListJobResultsResponseSchema, ProductSchema, type BatchItemResult,
} from '@retail/contract';
import { describe, expect, it } from 'vitest';
import { batchEntry, itemOutcome } from './batch-results.js';
import { batchItemNamed } from './batch-registry.js';
import { JOB_CSV_COLUMNS, jobCsvHeader, jobCsvRow } from './job-csv.js';
import { jobResultEntry } from './job-results.js';
import { registryOperation } from './registry.js';
import { carriesJobResults, renderResponseData } from './response-data.js';
import { MessageSchemas } from './schemas.js';

const product = (index: number): BatchItemResult => create(BatchItemResultSchema, {
  index,
  result: { case: 'product', value: { retailProduct: create(ProductSchema, { asin: 'B0FXTUS001', title: 'Kettle, "steel"', imageUrls: ['https://img/1.jpg'], price: { value: 9.5, currency: 'USD' } }) } },
});
const failed = (index: number, reason: ErrorReason, message: string, fieldPath: string[] = []): BatchItemResult =>
  create(BatchItemResultSchema, { index, result: { case: 'error', value: create(ErrorDetailSchema, { reason, message, fieldPath }) } });

describe('a job result as a batch entry', () => {
  it('is the very entry a batch writes for the same item', () => {
    const result = product(3);
    expect(jobResultEntry(result, 'rest')).toEqual(batchEntry(itemOutcome(result, batchItemNamed('product')!, 'rest', [])));
  });

  it('places error paths under the item as the JSON body wrote it, request names as client names', () => {
    expect(jobResultEntry(failed(2, ErrorReason.INVALID_ARGUMENT, 'bad', ['only_verified_reviews']), 'rest')).toEqual({
      index: 2, status: 400, errors: [{ code: 400, message: 'bad', path: ['body', 'items', '2', 'params', 'onlyVerifiedReviews'] }],
    });
    expect(jobResultEntry(failed(2, ErrorReason.INVALID_ARGUMENT, 'operation must be one of …', ['operation']), 'graphql')).toMatchObject({ errors: [{ code: 400, message: 'operation must be one of …', path: ['items', '2', 'operation'] }] });
    expect(jobResultEntry(failed(4, ErrorReason.INVALID_ARGUMENT, 'items[4] must be an object'), 'mcp')).toMatchObject({ errors: [{ path: ['items', '4'] }] });
    expect(jobResultEntry(failed(5, ErrorReason.NOT_FOUND, 'no such product'), 'rest')).toEqual({ index: 5, status: 404, errors: [{ code: 404, message: 'no such product' }] });
    expect(jobResultEntry(failed(6, ErrorReason.INTERNAL, 'stack trace at core.ts:12'), 'rest')).toEqual({ index: 6, status: 500, errors: [{ code: 500, message: 'internal error' }] });
  });

  it('renders ListJobResults pages as entries on every interface, compact on MCP, and is described as one', () => {
    const op = registryOperation(JobService.method.listJobResults.name);
    const response = create(ListJobResultsResponseSchema, { retailJobResults: { results: [product(0), failed(1, ErrorReason.NOT_FOUND, 'gone')] } });
    const rest = renderResponseData(op.response, response, 'rest') as { retailJobResults: { results: any[]; nextCursor: null } };
    expect(rest.retailJobResults.results[0]).toMatchObject({ index: 0, status: 200, data: { retailProduct: { asin: 'B0FXTUS001', imageUrls: ['https://img/1.jpg'] } } });
    expect(rest.retailJobResults.results[1]).toEqual({ index: 1, status: 404, errors: [{ code: 404, message: 'gone' }] });
    const mcp = renderResponseData(op.response, response, 'mcp') as typeof rest;
    expect(mcp.retailJobResults.results[0].data.retailProduct.imageUrls).toBeUndefined();
    expect(carriesJobResults(op.response)).toBe(true);
    expect(carriesJobResults(registryOperation('GetProduct').response)).toBe(false);
    const schemas = new MessageSchemas();
    expect(schemas.ref(BatchItemResultSchema)).toEqual({ $ref: '#/$defs/RetailBatchEntry' });
    expect(schemas.defs.RetailBatchEntry).toMatchObject({ oneOf: [{ required: ['index', 'status', 'data'] }, { required: ['index', 'status', 'errors'] }] });
  });
});

describe('a job result as a CSV row', () => {
  it('has the fixed columns, the record\'s scalar fields flattened, quotes as RFC 4180 writes them', () => {
    expect(jobCsvHeader()).toBe(`${JOB_CSV_COLUMNS.join(',')}\r\n`);
    const cells = (line: string) => line.trimEnd();
    const row = cells(jobCsvRow(product(0)));
    expect(row.startsWith('0,200,product,"Kettle, ""steel""",')).toBe(true);
    const byColumn = Object.fromEntries(JOB_CSV_COLUMNS.map((name, i) => [name, i]));
    expect(byColumn['price.value']).toBeGreaterThan(0);
    expect(JOB_CSV_COLUMNS).not.toContain('imageUrls');
    expect(cells(jobCsvRow(failed(1, ErrorReason.NOT_FOUND, 'no such product')))).toBe(`1,404,${','.repeat(JOB_CSV_COLUMNS.length - 4)},no such product`);
  });

  it('names an error\'s operation where its item named one, by the name a batch item gives it', () => {
    const named = (itemOperation: string) => create(BatchItemResultSchema, { ...failed(2, ErrorReason.NOT_FOUND, 'no such product'), itemOperation });
    expect(jobCsvRow(named('asin_from_gtin')).startsWith('2,404,product/asin-from-gtin,')).toBe(true);
    expect(jobCsvRow(named('offers')).startsWith('2,404,product/offers,')).toBe(true);
    // An item that named no operation the job runs (or a name no item operation has) leaves the cell empty.
    expect(jobCsvRow(named('')).startsWith('2,404,,')).toBe(true);
    expect(jobCsvRow(named('nosuch')).startsWith('2,404,,')).toBe(true);
  });
});
