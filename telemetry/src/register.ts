/**
 * OpenTelemetry bootstrap of every deployable, loaded before the application with
 * `node --import @retail/telemetry/register` (the code is ESM, so the SDK must be registered before
 * any module that creates spans or instruments runs). Off unless configured by the
 * standard variables: traces are exported when OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT is
 * set, metrics when OTEL_METRICS_EXPORTER is (e.g. `prometheus`, served on
 * OTEL_EXPORTER_PROMETHEUS_PORT, default 9464). OTEL_SDK_DISABLED=true always wins.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';

export function telemetryConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(env.OTEL_TRACES_EXPORTER || env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_METRICS_EXPORTER);
}

if (telemetryConfigured()) {
  // NodeSDK reads every other OTEL_* variable itself (service name, resource, sampler, endpoints).
  // Spans come from the project's own seams (gateway, core client, core, upstream), so no
  // auto-instrumentation is loaded: it would double every span and hook modules we do not use.
  const sdk = new NodeSDK({ serviceName: process.env.OTEL_SERVICE_NAME ?? 'retail-data', instrumentations: [] });
  sdk.start();
  const stop = () => void sdk.shutdown().catch(() => undefined);
  process.once('SIGTERM', stop);
  process.once('beforeExit', stop);
}
