/**
 * The WatchApi over the gateways' backend client (@retail/gateway-shared): each method is the
 * WatchService operation of the same name, its input checked and built by the registry as the REST
 * gateway does, the call sent with the session's account (`x-retail-account`), the answer rendered
 * by the contract's wire renderer, a failure mapped to the client-facing error. The history read is
 * billed one unit to the account through the metering library's account hold (no key: the console
 * acts for a signed-in user), charged only when the read succeeds.
 */
import { randomUUID } from 'node:crypto';
import type { CoreClient } from '@retail/gateway-shared/core-client';
import { parseParameters } from '@retail/gateway-shared/parameters';
import { executeOperation } from '@retail/gateway-shared/pipeline';
import { registryOperation } from '@retail/gateway-shared/registry';
import type { Meter } from '@retail/metering/api';
import { ConsoleError, ValidationError } from './errors.js';
import type { WatchApi, WireData } from './watch-api.js';

export interface ClientWatchApiOptions {
  /** The client with a WATCHER_ADDRESS (without one, every call answers 501). */
  readonly client: CoreClient;
  /** Holds and settles the units of metered operations (GetProductHistory). */
  readonly meter: Meter;
}

type Input = Record<string, unknown>;

export function createClientWatchApi({ client, meter }: ClientWatchApiOptions): WatchApi {
  const call = async (accountId: string, name: string, input: Input): Promise<WireData> => {
    const op = registryOperation(name);
    // JSON values (the console's bodies and its already checked queries), paths without a prefix.
    const parsed = parseParameters(op, input, 'mcp');
    if (!parsed.ok) throw new ValidationError(parsed.errors.map((error) => ({ path: error.path, message: error.message })));
    let hold;
    if (op.billing === 'metered') {
      const admitted = await meter.admitAccount({ accountId, holdId: `console-${randomUUID()}`, work: 'watcher', operations: [op.name] });
      if (!admitted.ok) {
        const { denial } = admitted;
        throw new ConsoleError(denial.httpStatus, denial.message, denial.retryAfterSeconds !== undefined ? { retryAfterSeconds: denial.retryAfterSeconds } : {});
      }
      hold = admitted.hold;
    }
    const result = await executeOperation(client, op, parsed.request, { requestId: randomUUID(), style: 'mcp', accountId });
    if (hold) await meter.settle(hold, result.ok ? 1 : 0, result.ok ? [op.name] : []);
    if (result.ok) return result.data;
    const [first] = result.errors;
    throw new ConsoleError(result.status, first?.message ?? 'The watch service refused the request', {
      ...(first?.path ? { path: first.path } : {}),
      ...(result.retryAfterSeconds !== undefined ? { retryAfterSeconds: result.retryAfterSeconds } : {}),
      cause: result.cause,
    });
  };
  return {
    createWatch: (account, body) => call(account, 'CreateWatch', { ...body }),
    listWatches: (account, query) => call(account, 'ListWatches', { ...query }),
    getWatch: (account, id) => call(account, 'GetWatch', { id }),
    // parseParameters sets replaceConditions when conditions are given, as for every interface.
    updateWatch: (account, id, body) => call(account, 'UpdateWatch', { ...body, id }),
    deleteWatch: (account, id) => call(account, 'DeleteWatch', { id }),
    getProductHistory: (account, query) => call(account, 'GetProductHistory', { ...query }),
    listWatchEvents: (account, query) => call(account, 'ListWatchEvents', { ...query }),
    listWebhookDeliveries: (account, watchId, query) => call(account, 'ListWebhookDeliveries', { ...query, watchId }),
    redeliverWebhook: (account, watchId, deliveryId) => call(account, 'RedeliverWebhook', { watchId, deliveryId }),
    sendTestWebhook: (account, watchId) => call(account, 'SendTestWebhook', { watchId }),
  };
}
