/**
 * The bodies that carry lookup items (the batch, a job's JSON and NDJSON) in the OpenAPI document:
 * their schemas refuse only what refuses the call, so a malformed item (the item's own 400 by
 * contract) is not documented as the call's 400, and the item's form stays documented as a component.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { BATCH_REGISTRY } from '@retail/gateway-shared';
import { describe, expect, it } from 'vitest';
import { buildOpenApi } from './openapi.js';
import { JOBS_PATH } from './job-paths.js';

const doc = buildOpenApi() as { paths: Record<string, Record<string, any>>; components: { schemas: Record<string, any> } };
const ID = 'https://retail.invalid/openapi.json';
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
// With the formats, so a `date-time` or `uri` in a schema is checked, not ignored.
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
ajv.addSchema({ ...doc, $id: ID });
const bodyOf = (path: string, mediaType = 'application/json') => doc.paths[path]!.post.requestBody.content[mediaType];
const escape = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');
const validates = (path: string, body: unknown, mediaType = 'application/json') =>
  ajv.validate({ $ref: `${ID}#/paths/${escape(path)}/post/requestBody/content/${escape(mediaType)}/schema` }, body);

const malformed = [{}, { operation: 'nosuch' }, { operation: 'product', params: { url: `https://www.amazon.com/${'x'.repeat(5000)}` } }, 7];

describe('the bodies of lookup items', () => {
  it('accept a malformed item, which is that item\'s 400 and not the call\'s, and refuse what refuses the call', () => {
    for (const path of [BATCH_REGISTRY.restPath, JOBS_PATH]) {
      expect(validates(path, { items: malformed })).toBe(true);
      expect(validates(path, { items: [] })).toBe(false);
      expect(validates(path, { items: {} })).toBe(false);
      expect(validates(path, {})).toBe(false);
      expect(validates(path, { items: [{ operation: 'product' }], other: 1 })).toBe(false);
    }
    expect(validates(BATCH_REGISTRY.restPath, { items: Array.from({ length: BATCH_REGISTRY.maxItems + 1 }, () => ({})) })).toBe(false);
    expect(validates(JOBS_PATH, { items: [{}], label: 'x'.repeat(201) })).toBe(false);
    expect(validates(JOBS_PATH, 'not json', 'application/x-ndjson')).toBe(true);
  });

  it('name the item form, a component with one schema per operation, in the item\'s description', () => {
    for (const item of [bodyOf(BATCH_REGISTRY.restPath).schema.properties.items.items, bodyOf(JOBS_PATH).schema.properties.items.items, bodyOf(JOBS_PATH, 'application/x-ndjson').schema]) {
      expect(item.description).toContain('(#/components/schemas/RetailBatchItemRequest)');
    }
    const form = doc.components.schemas.RetailBatchItemRequest;
    expect(form.oneOf.map((s: any) => s.properties.operation.const)).toEqual(BATCH_REGISTRY.items.map((i) => i.name));
  });

  it('keep their examples, which fit both the body and the item form', () => {
    for (const path of [BATCH_REGISTRY.restPath, JOBS_PATH]) {
      const { example } = bodyOf(path);
      expect(example.items.length).toBeGreaterThan(0);
      expect(validates(path, example)).toBe(true);
      for (const item of example.items) expect(ajv.validate({ $ref: `${ID}#/components/schemas/RetailBatchItemRequest` }, item)).toBe(true);
    }
    expect(doc.paths[JOBS_PATH]!.post.responses['202'].content['application/json'].example.data.retailJob.status).toBe('QUEUED');
  });
});

describe('the NDJSON answers of entries', () => {
  it('validate nothing as a whole body (several lines are no JSON value) and name the line\'s schema', () => {
    const answers = [doc.paths[BATCH_REGISTRY.restPath]!.post.responses['200'].content['application/x-ndjson'], doc.paths[`${JOBS_PATH}/{id}/results`]!.get.responses['200'].content['application/x-ndjson']];
    for (const answer of answers) {
      expect(Object.keys(answer.schema)).toEqual(['description']);
      expect(answer.schema.description).toContain('(#/components/schemas/RetailBatchEntry)');
    }
    expect(doc.components.schemas.RetailBatchEntry).toBeDefined();
  });
});
