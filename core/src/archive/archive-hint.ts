/**
 * Why the current call wants its fetched pages archived, carried through the call as async context
 * (the page source is shared by every handler and cannot take a per-call argument without changing
 * them all). Set by the unary call from `x-retail-archive` (proto/src/call-metadata.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ARCHIVE_METADATA_KEY, WATCH_REFRESH_ARCHIVE } from '@retail/contract';
import type { Metadata } from '@grpc/grpc-js';

export type ArchiveHint = 'watch-refresh';

const hints = new AsyncLocalStorage<ArchiveHint>();

export function archiveHintOf(metadata: Metadata): ArchiveHint | undefined {
  return metadata.get(ARCHIVE_METADATA_KEY)[0] === WATCH_REFRESH_ARCHIVE ? 'watch-refresh' : undefined;
}

/** Runs `work` with the hint of its call (or none). */
export function withArchiveHint<T>(hint: ArchiveHint | undefined, work: () => T): T {
  return hint ? hints.run(hint, work) : work();
}

export function currentArchiveHint(): ArchiveHint | undefined {
  return hints.getStore();
}
