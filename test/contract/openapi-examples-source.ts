/**
 * Collects the OpenAPI document's examples from the demo (scripts/openapi-examples.ts writes them to
 * gateways/rest/src/openapi-examples.generated.ts; the staleness test compares): for each lookup, the
 * first project-fixture request of the demo catalogue and the data the demo answers for it through
 * REST; for the watch operations, a watch created, read, changed and deleted on a fixture product.
 * Parameters the request does not name get an example from a recording (a recorded product URL, a
 * recorded GTIN) or from the parameter's own rules (its default, else its minimum, else its first
 * value). Only project fixtures are used: the document ships in the product, corpus pages may not.
 */
import { recordOfResponse } from '@retail/contract';
import { API_REGISTRY, BATCH_REGISTRY, type Operation } from '@retail/gateway-shared';
import { type CatalogueEntry, type DemoCatalogue, urlOf } from '../../app/src/demo-catalogue/model.js';
import { callDemo, type ExampleSource, fromRules, type OpenApiExamples, type OperationExample, typed } from './openapi-example-parts.js';
import { collectJobExamples } from './openapi-job-examples.js';
import { collectWatchExamples, normalizeVolatile } from './openapi-watch-examples.js';

export type { OpenApiExamples } from './openapi-example-parts.js';

function firstOf(catalogue: DemoCatalogue, operation: string): CatalogueEntry | undefined {
  return catalogue.entries.find((e) => e.operation === operation && e.source === 'project fixture');
}

/** The first `count` dotted paths to leaves of an answered record (a list's first item standing for all): a `fields` example the record really has. */
function leafPaths(value: unknown, count: number, prefix = ''): string[] {
  if (Array.isArray(value)) return leafPaths(value[0], count, prefix);
  if (value === null || typeof value !== 'object') return prefix ? [prefix] : [];
  const out: string[] = [];
  for (const [name, inner] of Object.entries(value)) {
    if (out.length >= count) break;
    if (Array.isArray(inner) && inner.length === 0) continue;
    out.push(...leafPaths(inner, count - out.length, prefix ? `${prefix}.${name}` : name));
  }
  return out;
}

/** Examples a lookup's request does not carry, each taken from a recording of the same demo. */
function recordedExamples(op: Operation, source: ExampleSource, response: unknown): Record<string, unknown> {
  const recordingUrl = (entry: CatalogueEntry | undefined) => source.recordings.find((r) => r.entry.id === entry?.recording)?.entry.url;
  const ownCategory = firstOf(source.catalogue, 'GetCategory')?.query.categoryId;
  const autocomplete = recordingUrl(firstOf(source.catalogue, 'GetAutocompleteSuggestions'));
  const prices = JSON.stringify(response).match(/"value":\d+(\.\d+)?/g)?.map((v) => Number(v.slice(8))) ?? [];
  return {
    // A lookup URL is a product page's address; a best-sellers URL, a best-sellers page's.
    url: recordingUrl(firstOf(source.catalogue, op.name === 'GetBestSellers' ? 'GetBestSellers' : 'GetProduct')),
    gtin: firstOf(source.catalogue, 'GetAsinFromGtin')?.query.gtin,
    categoryId: ownCategory,
    categoryIds: ownCategory,
    category: autocomplete ? new URL(autocomplete).searchParams.get('alias') : undefined,
    search: firstOf(source.catalogue, 'SearchProducts')?.query.searchTerm,
    ...(prices.length > 0 ? { minPrice: Math.min(...prices), maxPrice: Math.max(...prices) } : {}),
    // An answer with nothing to show (a book's variants) names the record's first field.
    fields: leafPaths((response as { data?: Record<string, unknown> }).data?.[op.dataRoot], 2).join(',') || recordOfResponse(op.response)?.fields[0]?.jsonName,
  };
}

async function lookupExample(op: Operation, source: ExampleSource): Promise<OperationExample> {
  const entry = firstOf(source.catalogue, op.name);
  if (!entry) throw new Error(`the demo catalogue has no project fixture for ${op.name}: add one to test/fixtures/pages`);
  const { status, body } = await callDemo(urlOf(entry, source.baseUrl), source.key);
  if (status !== 200) throw new Error(`${op.name} ${JSON.stringify(entry.query)} answered ${status}: ${JSON.stringify(body)}`);
  const request = Object.fromEntries(op.parameters.filter((p) => entry.query[p.name] !== undefined).map((p) => [p.name, typed(p, entry.query[p.name]!)]));
  const recorded = recordedExamples(op, source, body);
  const parameters = Object.fromEntries(op.parameters.map((p) => [p.name, request[p.name] ?? recorded[p.name] ?? fromRules(p)]));
  return { parameters, request, response: body };
}

/** How many of the batch's item operations its example names (each with its own lookup's request). */
const BATCH_EXAMPLE_ITEMS = 3;

/** A batch of the first item operations, each asking what its single call's example asks. */
async function batchExample(source: ExampleSource, lookups: OpenApiExamples): Promise<OperationExample> {
  const items = BATCH_REGISTRY.items.slice(0, BATCH_EXAMPLE_ITEMS).map((item) => ({ operation: item.name, params: lookups[item.op.operationId]!.request }));
  const { status, body } = await callDemo(`${source.baseUrl}${BATCH_REGISTRY.restPath}`, source.key, { method: 'POST', body: JSON.stringify({ items }) });
  if (status !== 200) throw new Error(`the batch example answered ${status}: ${JSON.stringify(body)}`);
  return { parameters: { items }, request: { items }, response: body };
}

/**
 * The calling key's account after the lookups and the batch (taken before any watch or job, whose
 * charges land in the background): its id and the day are replaced by stable ones.
 */
async function accountExample(source: ExampleSource): Promise<OperationExample> {
  const { status, body } = await callDemo(`${source.baseUrl}/api/account`, source.key);
  if (status !== 200) throw new Error(`the account example answered ${status}: ${JSON.stringify(body)}`);
  const { data } = body as { data: { accountId: string; usage: { date: string }[] } };
  const response = { data: { ...data, accountId: 'acct0example', usage: data.usage.map((row) => ({ ...row, date: '2026-01-01' })) } };
  return { parameters: {}, request: {}, response };
}

/**
 * The calling key's usage history by operation, once the record holds what the summary counts (the
 * hand-off writes in batches): the same calls as the account example, its periods on a stable day.
 */
async function accountUsageExample(source: ExampleSource, account: OperationExample): Promise<OperationExample> {
  const expected = (account.response as { data: { usage: { calls: number }[] } }).data.usage.reduce((sum, row) => sum + row.calls, 0);
  const request = { granularity: 'day', groupBy: 'operation' };
  for (let attempt = 0; ; attempt++) {
    const { status, body } = await callDemo(`${source.baseUrl}/api/account/usage?${new URLSearchParams(request).toString()}`, source.key);
    if (status !== 200) throw new Error(`the account usage example answered ${status}: ${JSON.stringify(body)}`);
    const { rows } = (body as { data: { retailUsage: { rows: { calls: number; period: string }[] } } }).data.retailUsage;
    const recorded = rows.reduce((sum, row) => sum + row.calls, 0);
    if (attempt === 100) throw new Error(`the usage record holds ${recorded} calls after 10 s; the account summary counts ${expected}`);
    if (recorded === expected) {
      const response = { data: { retailUsage: { rows: rows.map((row) => ({ ...row, period: '2026-01-01T00:00:00.000Z' })) } } };
      return { parameters: { from: '2026-01-01', to: '2026-01-31', ...request }, request, response };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every operation's examples, in registry order. */
export async function collectOpenApiExamples(source: ExampleSource): Promise<OpenApiExamples> {
  const examples: OpenApiExamples = {};
  for (const op of API_REGISTRY.filter((o) => o.service === 'retail.v1.RetailService')) examples[op.operationId] = await lookupExample(op, source);
  examples[BATCH_REGISTRY.operationId] = await batchExample(source, examples);
  examples.get_Account = await accountExample(source);
  examples.get_AccountUsage = await accountUsageExample(source, examples.get_Account);
  const product = firstOf(source.catalogue, 'GetProduct');
  if (!product) throw new Error('the demo catalogue has no project fixture product to watch');
  // Ids, times and secrets of what the run made are replaced by stable ones, the same value by the same one.
  const title = (examples.get_RetailProduct?.response as { data: { retailProduct: { title: string } } }).data.retailProduct.title;
  Object.assign(examples, normalizeVolatile({ ...(await collectWatchExamples(source, product, examples)), ...(await collectJobExamples(source, examples, title)) }));
  for (const [operationId, example] of Object.entries(examples)) {
    const missing = Object.entries(example.parameters).filter(([, v]) => v === undefined || v === null).map(([k]) => k);
    if (missing.length > 0) throw new Error(`${operationId}: no example for ${missing.join(', ')}`);
  }
  return examples;
}
