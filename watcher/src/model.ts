/**
 * The watcher's records, as every part of it (store, conditions, scheduler, webhooks) and the wire
 * contract of issue 14 see them. Times are `Date`s in code and ISO 8601 strings on the wire; prices
 * are in major units with their ISO 4217 currency, as everywhere else in the service.
 */

/** The 13 marketplace codes (the proto's Domain enum without its prefix). */
export type DomainCode = 'US' | 'UK' | 'CA' | 'DE' | 'FR' | 'IT' | 'ES' | 'AU' | 'IN' | 'MX' | 'BR' | 'JP' | 'PL';

/** What one successful refresh saw of one product. Shared across accounts: a fact about the marketplace. */
export interface Snapshot {
  readonly domain: DomainCode;
  readonly asin: string;
  /** When the refresh stored it. */
  readonly at: Date;
  /** When the page was retrieved from the marketplace (earlier than `at` when served from the cache). */
  readonly retrievedAt: Date;
  readonly price?: { readonly value: number; readonly currency: string };
  readonly listPrice?: { readonly value: number; readonly currency: string };
  readonly isInStock?: boolean;
  readonly buyboxSellerId?: string;
  readonly rating?: number;
  readonly ratingsTotal?: number;
  readonly bestSellersRank?: number;
  readonly bestSellersCategory?: string;
  readonly offerCount?: number;
  /**
   * Fields the product's own history says the page should show but this read did not yield (a
   * renamed block, a field under a data incident): absent above, and no condition reads them. A field
   * absent and not listed here is known to be absent (a price while out of stock). Empty when omitted.
   */
  readonly unknownFields?: readonly TrackedField[];
  /** Fields whose value a second read past the page cache did not confirm: kept above for audit, never fired on. */
  readonly suspectFields?: readonly TrackedField[];
  /** The point's mark as history serves it (derived from the two lists, or set by a re-parse). Default 'ok'. */
  readonly quality?: SnapshotQuality;
}

/** The fields a snapshot tracks; "any change" compares exactly these. */
export const TRACKED_FIELDS = [
  'price', 'listPrice', 'isInStock', 'buyboxSellerId', 'rating', 'ratingsTotal', 'bestSellersRank', 'bestSellersCategory', 'offerCount',
] as const satisfies ReadonlyArray<keyof Snapshot>;

export type TrackedField = (typeof TRACKED_FIELDS)[number];

/**
 * A history point's mark: `ok`; `suspect` when a field is unknown or unconfirmed; `revised` when a
 * later re-parse of the archived page corrected the point (issue 23, section 6; declared now so the
 * wire already carries it).
 */
export const SNAPSHOT_QUALITIES = ['ok', 'suspect', 'revised'] as const;
export type SnapshotQuality = (typeof SNAPSHOT_QUALITIES)[number];

/** The fields no condition may read in a snapshot: unknown or suspect. */
export function untrustedFields(snapshot: Pick<Snapshot, 'unknownFields' | 'suspectFields'>): ReadonlySet<TrackedField> {
  return new Set([...(snapshot.unknownFields ?? []), ...(snapshot.suspectFields ?? [])]);
}

/** The mark a refreshed snapshot gets from its field lists. */
export function qualityOf(snapshot: Pick<Snapshot, 'unknownFields' | 'suspectFields' | 'quality'>): SnapshotQuality {
  if (snapshot.quality === 'revised') return 'revised';
  return untrustedFields(snapshot).size > 0 ? 'suspect' : 'ok';
}

export type ConditionType = 'PRICE_AT_OR_BELOW' | 'PRICE_DROP_PERCENT' | 'BACK_IN_STOCK' | 'OUT_OF_STOCK' | 'BUYBOX_SELLER_CHANGED' | 'ANY_CHANGE';

/** A condition of a watch; `value` is the threshold of the two price conditions and absent otherwise. */
export interface Condition {
  readonly type: ConditionType;
  readonly value?: number;
}

export type WatchStatus = 'ACTIVE' | 'PAUSED';

/** Why a watch is paused: its owner paused it, or its account could not pay for a refresh. */
export type PausedReason = 'USER' | 'INSUFFICIENT_UNITS' | 'NOT_FOUND';

export interface Watch {
  readonly id: string;
  readonly accountId: string;
  readonly domain: DomainCode;
  readonly asin: string;
  readonly label?: string;
  readonly intervalSeconds: number;
  readonly conditions: readonly Condition[];
  readonly webhookUrl?: string;
  readonly status: WatchStatus;
  readonly pausedReason?: PausedReason;
  readonly createdAt: Date;
  readonly lastRefreshAt?: Date;
  readonly nextRefreshAt: Date;
}

/** Condition events carry the condition's type; lifecycle events say what happened to the watch. */
export type EventType = ConditionType | 'WATCH_PAUSED' | 'WATCH_RESUMED' | 'PRODUCT_NOT_FOUND' | 'WEBHOOK_TEST';

/** A fact about one watch, private to its account. `id` is the cursor order (monotonic). */
export interface WatchEvent {
  readonly id: string;
  readonly watchId: string;
  readonly accountId: string;
  readonly type: EventType;
  /** The snapshot fields before and after for condition events; lifecycle details otherwise. */
  readonly before: Readonly<Record<string, unknown>> | null;
  readonly after: Readonly<Record<string, unknown>> | null;
  readonly at: Date;
}
