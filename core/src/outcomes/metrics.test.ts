import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { describe, expect, it } from 'vitest';
import { createUpstreamMetrics, total } from './metrics.js';

describe('createUpstreamMetrics', () => {
  it('counts per host and class in the snapshot and through the OpenTelemetry API', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const m = createUpstreamMetrics(provider.getMeter('test'));
    m.outcome('www.amazon.com', 'ok');
    m.outcome('www.amazon.com', 'timeout');
    m.outcome('www.amazon.de', 'timeout');
    m.retry('www.amazon.com', 'timeout');
    m.circuit('www.amazon.com', 'open');
    m.cache('hit');
    expect(total(m.snapshot(), 'upstream_fetch_total')).toBe(3);
    expect(m.snapshot().counters['upstream_fetch_total{host="www.amazon.de",outcome="timeout"}']).toBe(1);
    // Every host fetched from is in the circuit gauge, closed until a transition says otherwise.
    expect(m.snapshot().circuits).toEqual({ 'www.amazon.com': 'open', 'www.amazon.de': 'closed' });

    await reader.forceFlush();
    const exported = exporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    const byName = Object.fromEntries(exported.map((x) => [x.descriptor.name, x.dataPoints]));
    const fetchPoints = byName.retail_upstream_fetches!;
    expect(fetchPoints.find((p) => p.attributes.host === 'www.amazon.com' && p.attributes.outcome === 'timeout')?.value).toBe(1);
    expect(byName.retail_upstream_circuit_state![0]).toMatchObject({ attributes: { host: 'www.amazon.com' }, value: 2 });
    await provider.shutdown();
  });
});
