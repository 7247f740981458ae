/**
 * The gateways' coalescing of core calls (CORE_COALESCE, gateways/shared/src/call-coalescer.ts) in
 * the HTTP benchmarks: BENCH_COALESCE lists the modes to measure (`on,off`: each full path once per
 * entry, in that order, against the same core process, so both are measured in the same minutes),
 * and how the calls of a measured run went to the core.
 */
import type { CoreClient } from '@retail/gateway-shared';

/** BENCH_COALESCE: comma list of on and off; default on, the gateways' default. */
export const COALESCE_MODES: readonly boolean[] = (process.env.BENCH_COALESCE || 'on').split(',').map((mode) => mode.trim() === 'on');

export const modeLabel = (coalesce: boolean | undefined) => `coalescing ${coalesce ? 'on' : 'off'}`;

export interface Coalescing {
  /** BatchLookup calls sent during the run. */
  readonly batches: number;
  /** Lookups per BatchLookup, on average. */
  readonly averageBatchSize: number;
  /** Share of the lookups that went in a batch (the rest went unary, alone in their turn). */
  readonly shareBatched: number;
}

/** Runs `measure` and adds how the client's lookups went to the core meanwhile (nothing when coalescing is off). */
export async function withCoalescing<T extends object>(core: CoreClient, measure: () => Promise<T>): Promise<T & { coalescing?: Coalescing }> {
  const before = core.coalescing() && { ...core.coalescing()! };
  const measured = await measure();
  const after = core.coalescing();
  if (!before || !after) return measured;
  const batches = after.batches - before.batches;
  const batched = after.batchedCalls - before.batchedCalls;
  const unary = after.unary - before.unary;
  return {
    ...measured,
    coalescing: { batches, averageBatchSize: Number((batched / Math.max(1, batches)).toFixed(2)), shareBatched: Number((batched / Math.max(1, batched + unary)).toFixed(3)) },
  };
}
