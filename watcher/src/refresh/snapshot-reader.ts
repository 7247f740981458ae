/**
 * What a refresh reads of one product: the snapshot fields of the marketplace's page, or that the
 * product is gone, or that the read failed (and whether trying again later can help). The refresh
 * processor depends on this interface only, so tests drive it with a scripted reader.
 */
import type { DomainCode, Snapshot } from '../model.js';

/** A read's fields; the refresh adds the product and the run's time (`at`) when it stores them. */
export type SnapshotFields = Omit<Snapshot, 'domain' | 'asin' | 'at'>;

export type SnapshotRead =
  | { readonly kind: 'snapshot'; readonly snapshot: SnapshotFields }
  | { readonly kind: 'not-found' }
  /** `retryable`: the marketplace or the core is busy or down (a later attempt may succeed). */
  | { readonly kind: 'failed'; readonly retryable: boolean; readonly reason: string };

export interface SnapshotReader {
  read(domain: DomainCode, asin: string, signal?: AbortSignal): Promise<SnapshotRead>;
}
