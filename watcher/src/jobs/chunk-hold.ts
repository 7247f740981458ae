/**
 * The ledger hold of one attempt of one chunk. The ledger admits and settles each hold id exactly
 * once, so the id is the same whenever the same attempt runs again (a re-run after a crash repeats
 * the attempt number: it finds its hold, or holds anew once that one expired, and is charged once)
 * and differs between attempts: a failed attempt settles its hold with 0, and reusing that id would
 * let the next attempt's successes pass free.
 */
import type { Hold } from '@retail/metering';

/** Hold ids are `[A-Za-z0-9:_.-]{1,128}`: a UUID, a chunk number and an attempt fit as they are. */
export function chunkHoldId(jobId: string, chunk: number, attempt: number): string {
  return `job:${jobId}:c${chunk}:a${attempt}`;
}

/** The hold to settle, rebuilt from what the chunk row keeps (the ledger knows it by id). */
export function chunkHold(holdId: string, accountId: string, operations: readonly string[]): Hold {
  return { holdId, accountId, keyId: '', units: operations.length, interface: 'jobs', operations: [...operations] };
}
