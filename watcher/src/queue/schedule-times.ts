/**
 * When schedules are due. BullMQ aligns `every` schedules to multiples of the interval since the epoch
 * plus an `offset`; without an offset a schedule's first run is "now", so 10,000 watches created in
 * one minute would all run in that minute, every interval, forever. The jitter here is that offset:
 * a phase in (0, everyMs] derived from the schedule id by a hash, so schedules spread uniformly over
 * their interval, and re-upserting the same id and interval (a restart reconciling watches) lands on
 * the same slot instead of moving it. The in-memory twin computes due times with `nextDueAt`, a copy
 * of BullMQ's `getJobSchedulerEveryNextMillis` (Lua) for the offset case; the suite holds them equal.
 */

/** FNV-1a, 32 bits: fast, stable across processes and versions, well spread for short ids. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/** The schedule's phase inside its interval, in (0, everyMs]; never 0, which BullMQ reads as "no offset". */
export function schedulePhaseMs(scheduleId: string, everyMs: number): number {
  // Mixing the interval in gives a schedule a new phase when its interval changes.
  const hash = fnv1a(`${scheduleId}\u0000${everyMs}`);
  return hash % everyMs || everyMs;
}

/**
 * The next due time after `previous` (undefined for a new schedule or a changed interval): the next
 * slot of `every` plus `phase` after now, or `previous + every` while that is not in the past.
 */
export function nextDueAt(previous: number | undefined, everyMs: number, now: number, phaseMs: number): number {
  if (previous !== undefined && previous + everyMs >= now) return previous + everyMs;
  const aligned = Math.floor(now / everyMs) * everyMs + phaseMs;
  return aligned <= now ? aligned + everyMs : aligned;
}

/** Intervals are whole milliseconds (the watcher's plan bounds are minutes; tests use a few hundred ms). */
export function checkEveryMs(everyMs: number): void {
  if (!Number.isSafeInteger(everyMs) || everyMs < 2) throw new Error(`schedule interval must be whole milliseconds ≥ 2, got ${everyMs}`);
}
