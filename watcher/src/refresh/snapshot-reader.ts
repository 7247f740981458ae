/**
 * What a refresh reads of one product: the snapshot fields of the marketplace's page, or that the
 * product is gone, or that the read failed (and whether trying again later can help). The refresh
 * processor depends on this interface only, so tests drive it with a scripted reader.
 */
import type { DomainCode, Snapshot, TrackedField } from '../model.js';

/** A read's fields; the refresh adds the product and the run's time (`at`) when it stores them. */
export type SnapshotFields = Omit<Snapshot, 'domain' | 'asin' | 'at' | 'unknownFields' | 'suspectFields' | 'quality'>;

export type SnapshotRead =
  | {
    readonly kind: 'snapshot';
    readonly snapshot: SnapshotFields;
    /**
     * The fields the core says are under a data incident for this page kind and marketplace (issue
     * 23, sections 1–3: the core's answer metadata). The refresh stores them as unknown, whatever
     * value the page gave. Absent: none.
     */
    readonly incidentFields?: readonly TrackedField[];
  }
  | { readonly kind: 'not-found' }
  /** `retryable`: the marketplace or the core is busy or down (a later attempt may succeed). */
  | { readonly kind: 'failed'; readonly retryable: boolean; readonly reason: string };

export interface ReadOptions {
  readonly signal?: AbortSignal;
  /**
   * Read the page afresh, past the core's page cache (a confirmation read, docs/watches.md "Quality
   * marks"): the fetch still goes through the core's host caps, rate limits and circuit breaker.
   */
  readonly fresh?: boolean;
}

export interface SnapshotReader {
  read(domain: DomainCode, asin: string, options?: ReadOptions): Promise<SnapshotRead>;
}
