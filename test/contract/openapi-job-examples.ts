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
    // 202 for a create (queued), 200 for the rest.
    if (status !== 200 && status !== 202) throw new Error(`${method} /jobs${path} answered ${status}: ${JSON.stringify(answer)}`);
    return answer as Answer;
  };
  const items = BATCH_REGISTRY.items.slice(0, JOB_EXAMPLE_ITEMS).map((item) => ({ operation: item.name, params: lookups[item.op.operationId]!.request }));
  const ended = (id: string) => until(`job ${id} to end`, async () => {
    const answer = await call('GET', `/${id}`);
    return answer.data.retailJob!.finishedAt ? answer : undefined;
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
    create_RetailJob: example('create_RetailJob', createBody, created),
    get_RetailJob: example('get_RetailJob', { id }, read),
    list_RetailJobs: example('list_RetailJobs', { limit: 1 }, listed, { cursor: cursorOf(listed) }),
    cancel_RetailJob: example('cancel_RetailJob', { id }, cancelled),
    list_RetailJobResults: example('list_RetailJobResults', { id, limit: 1 }, results, { cursor: cursorOf(results) }),
  };
}
