/**
 * Test files that install OpenTelemetry globals (a tracer or meter provider, a context manager). The
 * instruments and tracers the gateways and the core create once per module bind to the provider
 * that is global when they are made, so these files run isolated (a fresh module graph each) while
 * every other file shares its worker's modules (vitest.config.ts). test/architecture/
 * test-isolation.test.ts fails when a test file installs such a global and is not listed here.
 */
export const INSTALLS_TELEMETRY_GLOBALS: readonly string[] = [
  'test/observability/trace.test.ts',
  'test/observability/metrics.test.ts',
  'test/observability/billing-export-metrics.test.ts',
  'test/batch/coalesced-calls.test.ts',
  'gateways/shared/src/core-client-stream.test.ts',
  'gateways/shared/src/logger.test.ts',
];
