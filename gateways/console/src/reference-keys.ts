/**
 * The API reference's keys (reference-key-routes.ts): what they are called and how long they live,
 * and their revocation, which sign-out uses too (so this sits apart from the routes).
 */
import type { ConsoleContext } from './context.js';

export const REFERENCE_KEY_LABEL = 'API reference (signed-in browser)';
export const REFERENCE_KEY_TTL_MS = 3_600_000;
/** Revokes the account's live reference keys but the newest `keep`. */
export async function revokeReferenceKeys(ctx: ConsoleContext, accountId: string, keep = 0): Promise<void> {
  const now = ctx.clock();
  const live = (await ctx.metering.admin.listKeys(accountId))
    .filter((key) => key.label === REFERENCE_KEY_LABEL && !key.revokedAt && (!key.expiresAt || Date.parse(key.expiresAt) > now))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  for (const key of live.slice(keep)) await ctx.metering.admin.revokeKey(accountId, key.keyId);
}
