import { metrics as otel, type Meter } from '@opentelemetry/api';

/**
 * BatchLookup's items on the OpenTelemetry metrics API (a no-op until an SDK is registered): how
 * many items ran, by RPC and result, and how many rode on an identical item of the same batch
 * instead of running again. Built with the server, never at module load (docs/observability.md).
 */
export interface BatchMetrics {
  /** One item answered: `result` is OK or the ErrorReason name; `shared` when an identical item ran for it. */
  item(rpc: string, result: string, shared: boolean): void;
}

export function createBatchMetrics(meter: Meter = otel.getMeter('retail-core')): BatchMetrics {
  const items = meter.createCounter('retail_batch_items', { description: 'BatchLookup items answered, by RPC, result and whether an identical item ran for them' });
  return {
    item: (rpc, result, shared) => items.add(1, { rpc, result, shared: String(shared) }),
  };
}
