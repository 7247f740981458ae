/**
 * CreateWatch: check the body and the plan's limits (interval, number of watches), resolve the product, seal a new webhook secret bound to the watch's
 * id, store the watch (due at once), then schedule the product and queue its first snapshot now.
 * The plain secret leaves only in this response.
 */
import { randomUUID } from 'node:crypto';
import { create } from '@bufbuild/protobuf';
import { type CreateWatchRequest, CreateWatchRequestSchema, type CreateWatchResponse, CreateWatchResponseSchema } from '@retail/contract';
import { generateWebhookSecret, sealSecret } from '../webhooks/index.js';
import type { CallContext, ServiceParts } from './deps.js';
import { DEFAULT_INTERVAL_SECONDS } from './declared-defaults.js';
import { accountLimits, checkInterval, checkRoomForWatch } from './limits.js';
import { followWatchChange } from './product-schedule.js';
import { checkDeclaredRules, conditionsOf, webhookUrlOf } from './request-checks.js';
import { watchMessage } from './to-proto.js';

export function createWatchHandler(parts: ServiceParts) {
  return async (request: CreateWatchRequest, context: CallContext): Promise<CreateWatchResponse> => {
    checkDeclaredRules(CreateWatchRequestSchema, request);
    const conditions = conditionsOf(request.conditions);
    const webhookUrl = request.webhook ? webhookUrlOf(request.webhook.url, parts.webhooks.policy) : undefined;
    const intervalSeconds = request.intervalSeconds ?? DEFAULT_INTERVAL_SECONDS;
    const limits = await accountLimits(parts, context.accountId);
    checkInterval(limits, intervalSeconds);
    await checkRoomForWatch(parts, limits, context.accountId);
    const product = await parts.resolve(request, { requestId: context.requestId, signal: context.signal });
    const id = randomUUID();
    const secret = webhookUrl === undefined ? undefined : generateWebhookSecret();
    const label = request.label?.trim();
    const watch = await parts.store.watches.create({
      id,
      accountId: context.accountId,
      domain: product.domain,
      asin: product.asin,
      ...(label ? { label } : {}),
      intervalSeconds,
      conditions,
      ...(webhookUrl !== undefined && secret !== undefined && { webhook: { url: webhookUrl, secretCiphertext: sealSecret(parts.webhooks.keyring, secret, id) } }),
    });
    await followWatchChange(parts, product, { refreshNow: true });
    return create(CreateWatchResponseSchema, { retailWatch: watchMessage(watch, secret) });
  };
}
