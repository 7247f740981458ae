/**
 * The ledger hold of one watch's share of one refresh attempt. The ledger makes admit and settle
 * exactly once per hold id, so the id must be the same whenever the same attempt runs again (a crash
 * re-run repeats the run id and the attempt number) and differ between retries: a retry after a
 * failed read settled its hold with 0, and reusing that id would let the retry's success pass free.
 */
import { createHash } from 'node:crypto';

/** Hold ids are `[A-Za-z0-9:_.-]{1,128}`; a run id may hold anything, so it enters as a digest. */
export function refreshHoldId(watchId: string, runId: string, attempt: number): string {
  const run = createHash('sha256').update(runId).digest('base64url').slice(0, 22);
  return `watch:${watchId}:run:${run}:a${attempt}`;
}
