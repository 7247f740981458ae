/**
 * GetProductHistory: a product's snapshots in [from, to], oldest first, downsampled in SQL to at most
 * max_points (store/snapshots.ts), and the period's summary over every snapshot (store/history-summary.ts). Snapshots are shared facts about the marketplace, so any account
 * may read any product's history; the gateways charge the one unit before calling.
 */
import { create } from '@bufbuild/protobuf';
import {
  type GetProductHistoryRequest, GetProductHistoryRequestSchema, type GetProductHistoryResponse, GetProductHistoryResponseSchema,
} from '@retail/contract';
import type { CallContext, ServiceParts } from './deps.js';
import { DEFAULT_HISTORY_POINTS } from './declared-defaults.js';
import { invalidArgument } from './errors.js';
import { checkDeclaredRules, domainCodeOf } from './request-checks.js';
import { domainOf, historyPointMessage, historySummaryMessage } from './to-proto.js';

export const DEFAULT_HISTORY_DAYS = 30;
const DAY_MS = 86_400_000;

/**
 * An RFC 3339 time, or a date (UTC). A date as `to` means the whole day, so from=to=2026-03-01 reads
 * that day. The declared pattern has already checked the shape; this catches impossible values (month 13).
 */
function instantOf(text: string, field: 'from' | 'to'): Date {
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = new Date(dateOnly ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(at.getTime()) || (dateOnly && at.toISOString().slice(0, 10) !== text)) {
    throw invalidArgument(`${field} is not a valid date or time`, field);
  }
  return dateOnly && field === 'to' ? new Date(at.getTime() + DAY_MS - 1) : at;
}

export function productHistoryHandler(parts: ServiceParts) {
  return async (request: GetProductHistoryRequest, _context: CallContext): Promise<GetProductHistoryResponse> => {
    checkDeclaredRules(GetProductHistoryRequestSchema, request);
    const to = request.to !== undefined ? instantOf(request.to, 'to') : parts.now();
    const from = request.from !== undefined ? instantOf(request.from, 'from') : new Date(to.getTime() - DEFAULT_HISTORY_DAYS * DAY_MS);
    if (from > to) throw invalidArgument('from must not be later than to', 'from');
    const domain = domainCodeOf(request.domain);
    const asin = request.asin.trim().toUpperCase();
    // The last snapshot's state counts until the period's end, but never into the future.
    const end = new Date(Math.min(to.getTime(), parts.now().getTime()));
    const [points, summary] = await Promise.all([
      parts.store.snapshots.history({ domain, asin, from, to, maxPoints: request.maxPoints ?? DEFAULT_HISTORY_POINTS }),
      parts.store.snapshots.summary({ domain, asin, from, to, end }),
    ]);
    return create(GetProductHistoryResponseSchema, {
      retailProductHistory: { asin, domain: domainOf(domain), points: points.map(historyPointMessage), summary: historySummaryMessage(summary) },
    });
  };
}
