/**
 * Plain counters, ready to be read by an OpenTelemetry observable instrument (app/ wires that).
 * Each Metering instance has its own; `meteringCounters` sums every instance in the process.
 */
export interface MeteringCounters {
  admitted: number;
  denied: Record<string, number>;
  settled: number;
  unitsCharged: number;
  /** Admit/settle/authenticate calls that failed because the ledger store was unreachable (fail closed). */
  ledgerUnavailable: number;
  /** Keys refused by shape or checksum, without a store lookup. */
  malformedKeys: number;
  /** Round trips to the ledger store from the hot path (admit, settle, authenticate, summary). */
  storeCalls: number;
  /** Settles sent again after a timeout or a lost connection (each is exactly once by hold id). */
  settleRetries: number;
}

export function createCounters(): MeteringCounters {
  return { admitted: 0, denied: {}, settled: 0, unitsCharged: 0, ledgerUnavailable: 0, malformedKeys: 0, storeCalls: 0, settleRetries: 0 };
}

export const meteringCounters: MeteringCounters = createCounters();

type NumericCounter = Exclude<keyof MeteringCounters, 'denied'>;

export function bump(local: MeteringCounters, name: NumericCounter, by = 1): void {
  local[name] += by;
  meteringCounters[name] += by;
}

export function bumpDenied(local: MeteringCounters, reason: string): void {
  local.denied[reason] = (local.denied[reason] ?? 0) + 1;
  meteringCounters.denied[reason] = (meteringCounters.denied[reason] ?? 0) + 1;
}
