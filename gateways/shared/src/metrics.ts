/**
 * Metrics of the gateways on the OpenTelemetry API (no-ops until an SDK with a reader is registered;
 * app/src/telemetry.ts exposes them for Prometheus with OTEL_METRICS_EXPORTER=prometheus).
 */
import { metrics } from '@opentelemetry/api';
import type { RequestHandler } from 'express';

// The metrics API has no proxy meter (tracing has one): a meter taken before the SDK registers stays
// a no-op for good, so instruments are created when an app is built, never at module load.
const gatewayMeter = () => metrics.getMeter('retail-gateway');

/** The interface a path belongs to, as the Ingress routes it. */
export function interfaceOfPath(path: string): string {
  if (path.startsWith('/api/retail/') || path === '/api/openapi.json' || path === '/api/account' || path === '/api/account/usage') return 'rest';
  if (path === '/api/graphql') return 'graphql';
  if (path === '/api/mcp') return 'mcp';
  if (path === '/console' || path.startsWith('/console/')) return 'console';
  return 'other';
}

/**
 * The route a request is counted and logged under: its path on the API interfaces (fixed paths, no
 * values in them), else the interface alone (console paths carry key ids; other paths are anything
 * a client typed), so the set stays bounded.
 */
export function routeOfPath(path: string): string {
  const iface = interfaceOfPath(path);
  return iface === 'rest' || iface === 'graphql' || iface === 'mcp' ? path : iface;
}

/** Express middleware: counts every request and records its duration when the response finishes. */
export function measureRequests(): RequestHandler {
  const meter = gatewayMeter();
  const requests = meter.createCounter('retail_gateway_requests', { description: 'Client requests by interface, route and HTTP status' });
  const duration = meter.createHistogram('retail_gateway_request_duration_seconds', {
    description: 'Time from request to response finish, by interface and route',
    unit: 's',
    advice: { explicitBucketBoundaries: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] },
  });
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const iface = interfaceOfPath(req.path);
      const route = routeOfPath(req.path);
      requests.add(1, { interface: iface, route, status: res.statusCode });
      duration.record((performance.now() - started) / 1000, { interface: iface, route });
    });
    next();
  };
}

/** The metering library's process-wide counters (structural, so this package needs no dependency on it). */
export interface MeteringCountersLike {
  readonly admitted: number;
  readonly denied: Readonly<Record<string, number>>;
  readonly unitsCharged: number;
  readonly ledgerUnavailable: number;
  readonly settleRetries: number;
}

/**
 * Exposes the ledger's counters as observable counters: units charged (the ledger is the authority
 * on what was billed), admissions, denials by reason and ledger outages (failed closed).
 */
let meteringRegistered = false;

export function registerMeteringMetrics(counters: MeteringCountersLike): void {
  // The counters are process-wide: one set of callbacks per process, however many gateways it hosts.
  if (meteringRegistered) return;
  meteringRegistered = true;
  const meter = gatewayMeter();
  meter.createObservableCounter('retail_units_charged', { description: 'Units charged by the ledger' }).addCallback((r) => r.observe(counters.unitsCharged));
  meter.createObservableCounter('retail_metering_admitted', { description: 'Calls admitted (units held)' }).addCallback((r) => r.observe(counters.admitted));
  meter.createObservableCounter('retail_metering_denied', { description: 'Calls refused by the metering library, by reason' }).addCallback((r) => {
    for (const [reason, n] of Object.entries(counters.denied)) r.observe(n, { reason });
  });
  meter
    .createObservableCounter('retail_ledger_unavailable', {
      description: 'Ledger steps that failed: admits refused with 503, settles given up after their window (served, not charged)',
    })
    .addCallback((r) => r.observe(counters.ledgerUnavailable));
  // Settles sent again after a timeout or a lost connection: a frozen or restarting ledger shows here first.
  meter
    .createObservableCounter('retail_ledger_settle_retries', { description: 'Settles sent again after a ledger timeout or reconnect (exactly once by hold id)' })
    .addCallback((r) => r.observe(counters.settleRetries));
}

/** What the billing export reports (@retail/metering's UsageExportStatus). */
export interface BillingExportStatusLike {
  readonly exported: number;
  readonly pending: number;
  readonly lagSeconds: number;
  readonly failures: number;
  readonly lastSuccessAt?: number;
}

/**
 * The billing export's progress (docs/metering.md, Exporting usage to a billing system), read from the
 * record at each collection, so every replica reports the one export's state: alert on the lag or on
 * the time since the last success, not on one replica's view.
 */
let billingExportStatus: (() => Promise<BillingExportStatusLike>) | undefined;

export function registerBillingExportMetrics(status: () => Promise<BillingExportStatusLike>): void {
  // One set of instruments per process; a restarted export (tests) reports through the same ones.
  const registered = billingExportStatus !== undefined;
  billingExportStatus = status;
  if (registered) return;
  const meter = gatewayMeter();
  const exported = meter.createObservableGauge('retail_billing_export_exported_events', { description: 'Usage events the billing system acknowledged (the cursor)' });
  const pending = meter.createObservableGauge('retail_billing_export_pending_events', { description: 'Usage events not exported yet (counted up to 100000)' });
  const lag = meter.createObservableGauge('retail_billing_export_lag_seconds', { description: 'Age of the oldest usage event not exported yet; 0 when none waits', unit: 's' });
  const failures = meter.createObservableGauge('retail_billing_export_failures', { description: 'Failed sends in a row (0 after a success)' });
  const lastSuccess = meter.createObservableGauge('retail_billing_export_last_success_timestamp_seconds', { description: 'When the billing system last acknowledged a batch (Unix seconds)', unit: 's' });
  // One read of the record per collection for all five.
  meter.addBatchObservableCallback(async (result) => {
    const now = await billingExportStatus?.().catch(() => undefined);
    if (!now) return;
    result.observe(exported, now.exported);
    result.observe(pending, now.pending);
    result.observe(lag, now.lagSeconds);
    result.observe(failures, now.failures);
    if (now.lastSuccessAt !== undefined) result.observe(lastSuccess, now.lastSuccessAt / 1000);
  }, [exported, pending, lag, failures, lastSuccess]);
}
