/**
 * BENCH_TELEMETRY=on: an OpenTelemetry SDK registered in the benchmark's process before the gateway
 * is built, as @retail/telemetry/register does in a deployment with exporters configured: every
 * span recorded and batched (to an exporter that drops them: the export's network cost is not the
 * gateway's), the W3C propagator and the AsyncLocalStorage context manager, and the metrics
 * recorded by a reader collecting every 10 s. Imported first by bench/rest.ts and bench/graphql-mcp.ts,
 * so the "on" cost of tracing and metrics is measured beside the same run's "off".
 */
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

export const telemetryOn = process.env.BENCH_TELEMETRY === 'on';

if (telemetryOn) {
  let exported = 0;
  const dropping: SpanExporter = {
    export: (spans: ReadableSpan[], done) => {
      exported += spans.length;
      done({ code: 0 });
    },
    shutdown: async () => {},
  };
  new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropping)] }).register();
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 10_000 })] }));
  process.on('exit', () => console.error(`telemetry on: ${exported} spans exported`));
}
