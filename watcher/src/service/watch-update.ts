/**
 * UpdateWatch: absent fields stay as they are. A changed interval is held to the plan's minimum.
 * Label, interval, conditions and webhook are one store update; PAUSED pauses the watch with reason USER (also one paused for units, so that a grant does
 * not resume it), ACTIVE resumes a paused one whatever paused it
 * (due at once, its snapshot queued now, as a new watch). The owner's own pause and resume append no
 * event: events report what happened to a watch, not what its owner just did. A new webhook's secret
 * is in this response only.
 */
import { create } from '@bufbuild/protobuf';
import { type UpdateWatchRequest, UpdateWatchRequestSchema, type UpdateWatchResponse, UpdateWatchResponseSchema, WatchStatus } from '@retail/contract';
import type { Watch } from '../model.js';
import type { WatchPatch } from '../store/index.js';
import { generateWebhookSecret, sealSecret } from '../webhooks/index.js';
import type { CallContext, ServiceParts } from './deps.js';
import { invalidArgument, notFound } from './errors.js';
import { accountLimits, checkInterval } from './limits.js';
import { followWatchChange } from './product-schedule.js';
import { checkDeclaredRules, conditionsOf, webhookUrlOf } from './request-checks.js';
import { watchMessage } from './to-proto.js';
import { ownWatch } from './watch-read.js';

/** The request's cross-field rules, which no single field's declaration can state. */
function checkCombination(request: UpdateWatchRequest): void {
  if (request.webhook && request.removeWebhook) throw invalidArgument('give webhook or remove_webhook, not both', 'remove_webhook');
  if (request.conditions.length > 0 && !request.replaceConditions) {
    throw invalidArgument('set replace_conditions with conditions (they replace the old ones)', 'replace_conditions');
  }
  if (request.status === WatchStatus.UNSPECIFIED) throw invalidArgument('status must be ACTIVE or PAUSED', 'status');
}

/** True when the watch went from ACTIVE to PAUSED or back (its product's schedule must follow). */
async function applyStatus(parts: ServiceParts, watch: Watch, status: WatchStatus | undefined): Promise<boolean> {
  // Also over a pause for units: the owner's pause must survive units coming back.
  if (status === WatchStatus.PAUSED && watch.pausedReason !== 'USER') {
    await parts.store.watches.pauseByOwner(watch.accountId, watch.id);
    return watch.status === 'ACTIVE';
  }
  if (status === WatchStatus.ACTIVE && watch.status === 'PAUSED' && watch.pausedReason) {
    return (await parts.store.watches.resume(watch.accountId, watch.pausedReason, [watch.id])).length > 0;
  }
  return false;
}

export function updateWatchHandler(parts: ServiceParts) {
  return async (request: UpdateWatchRequest, context: CallContext): Promise<UpdateWatchResponse> => {
    checkDeclaredRules(UpdateWatchRequestSchema, request);
    checkCombination(request);
    const conditions = request.replaceConditions ? conditionsOf(request.conditions) : undefined;
    const webhookUrl = request.webhook ? webhookUrlOf(request.webhook.url, parts.webhooks.policy) : undefined;
    const before = await ownWatch(parts, context.accountId, request.id, 'id');
    // Only a change is held to the plan: a watch made before a downgrade keeps its interval until then.
    if (request.intervalSeconds !== undefined && request.intervalSeconds !== before.intervalSeconds) {
      checkInterval(await accountLimits(parts, context.accountId), request.intervalSeconds);
    }
    const secret = webhookUrl === undefined ? undefined : generateWebhookSecret();
    const patch: WatchPatch = {
      ...(request.label !== undefined && { label: request.label.trim() === '' ? null : request.label.trim() }),
      ...(request.intervalSeconds !== undefined && { intervalSeconds: request.intervalSeconds }),
      ...(conditions !== undefined && { conditions }),
      ...(webhookUrl !== undefined && secret !== undefined && { webhook: { url: webhookUrl, secretCiphertext: sealSecret(parts.webhooks.keyring, secret, before.id) } }),
      ...(request.removeWebhook && { webhook: null }),
    };
    if (Object.keys(patch).length > 0 && !(await parts.store.watches.update(context.accountId, before.id, patch))) throw notFound('watch', 'id');
    const resumed = request.status === WatchStatus.ACTIVE && before.status === 'PAUSED';
    const statusChanged = await applyStatus(parts, before, request.status);
    if (statusChanged || patch.intervalSeconds !== undefined) {
      await followWatchChange(parts, before, { refreshNow: statusChanged && resumed });
    }
    // Read back: a concurrent delete between the steps is a plain NOT_FOUND, not a half answer.
    const after = await ownWatch(parts, context.accountId, before.id, 'id');
    return create(UpdateWatchResponseSchema, { retailWatch: watchMessage(after, secret) });
  };
}
