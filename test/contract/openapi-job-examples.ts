/**
 * The bulk-job operations' examples, from a real run against the demo: a job of the first batch item
 * operations (each asking what its single call's example asks), with an end webhook to the closed
 * loopback receiver, is created and run to its end; a second one gives the list a next page; the
 * first is read, its results read a page of one at a time, and cancelled (an ended job stays as it
 * is, so the answer does not depend on timing). Ids and times are made stable by the caller.
 */
import { BATCH_REGISTRY } from '@retail/gateway-shared';
import { callDemo, type ExampleSource, fromRules, type OpenApiExamples, type OperationExample, until } from './openapi-example-parts.js';
import { EXAMPLE_RECEIVER, opOf } from './openapi-watch-examples.js';

/** How many item operations the example job names, as the batch example does. */
const JOB_EXAMPLE_ITEMS = 3;

type Answer = { data: Record<string, Record<string, unknown>> };

export async function collectJobExamples(source: ExampleSource, lookups: OpenApiExamples, label: string): Promise<OpenApiExamples> {
  const api = `${source.baseUrl}/api/retail/jobs`;
  const call = async (method: string, path: string, body?: unknown): Promise<Answer> => {
    const { status, body: answer } = await callDemo(`${api}${path}`, source.key, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    // A create answers 202 (stored and queued), every other job route 200.
    if (status !== (method === 'POST' ? 202 : 200)) throw new Error(`${method} /jobs${path} answered ${status}: ${JSON.stringify(answer)}`);
    return answer as Answer;
  };
  // The REST body's items are batch items, {operation, params}, as POST /api/retail/batch takes them.
  const items = BATCH_REGISTRY.items.slice(0, JOB_EXAMPLE_ITEMS).map((item) => ({ operation: item.name, params: lookups[item.op.operationId]!.request }));
  // Ended, and its end webhook tried once (the closed port refuses it), so the example is the same every run.
  const ended = (id: string) => until(`job ${id} to end`, async () => {
    const answer = await call('GET', `/${id}`);
    const job = answer.data.retailJob as { finishedAt?: string | null; webhook?: { attemptCount: number } | null };
    return job.finishedAt && (!job.webhook || job.webhook.attemptCount > 0) ? answer : undefined;
  });
  const createBody = { items, label, webhook: EXAMPLE_RECEIVER };
  const created = await call('POST', '', createBody);
  const id = String(created.data.retailJob!.id);
  const read = await ended(id);
  const second = String((await call('POST', '', { items: items.slice(0, 1) })).data.retailJob!.id);
  await ended(second);
  const listed = await call('GET', '?limit=1');
  const results = await call('GET', `/${id}/items?limit=1`);
  const cancelled = await call('DELETE', `/${id}`);

  const cursorOf = (answer: Answer) => Object.values(answer.data)[0]?.nextCursor;
  const example = (operationId: string, request: Record<string, unknown>, response: unknown, extra: Record<string, unknown> = {}): OperationExample => {
    const op = opOf(operationId);
    return { parameters: Object.fromEntries(op.parameters.map((p) => [p.name, request[p.name] ?? extra[p.name] ?? fromRules(p)])), request, response };
  };
  return {
    // The request is the JSON body (the query parameters' examples are taken from it: job-create-openapi.ts).
    create_RetailJob: example('create_RetailJob', createBody, created),
    get_RetailJob: example('get_RetailJob', { id }, read),
    list_RetailJobs: example('list_RetailJobs', { limit: 1 }, listed, { cursor: cursorOf(listed) }),
    cancel_RetailJob: example('cancel_RetailJob', { id }, cancelled),
    list_RetailJobResults: example('list_RetailJobResults', { id, limit: 1 }, results, { cursor: cursorOf(results) }),
  };
}
