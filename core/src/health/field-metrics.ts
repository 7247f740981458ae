import { metrics as otel, type Meter } from '@opentelemetry/api';
import type { PageKindHealth } from './field-declarations.js';
import type { FieldSnapshot } from './field-snapshot.js';

/*
 * Field health as Prometheus sees it (through the OpenTelemetry metrics API, a no-op until the SDK
 * is registered; docs/observability.md). Two kinds of series:
 *
 * - counters of this replica (`retail_parses_total`, `retail_parse_fields_missing_total`): sum them
 *   across replicas and take rates, as with any counter;
 * - gauges of the shared window (`retail_field_completeness`, `retail_field_baseline`,
 *   `retail_field_window_parses`): every replica reports the same window, so alert on their max.
 *
 * The alert rules (charts/retail-data/rules, docs/data-health.md) read these names.
 */

export interface FieldHealthMetrics {
  /** Counts a batch of parses of one (marketplace, kind), presence strings as the window keeps them. */
  parsed(marketplace: string, health: PageKindHealth, presence: readonly string[]): void;
}

export function createFieldHealthMetrics(snapshots: () => Iterable<FieldSnapshot>, meter: Meter = otel.getMeter('retail-core')): FieldHealthMetrics {
  const parses = meter.createCounter('retail_parses', { description: 'Parses of marketplace pages by marketplace and kind (blocked pages and 404s are not parses)' });
  const missing = meter.createCounter('retail_parse_fields_missing', { description: 'Parses that did not produce a declared field, by marketplace, kind and field' });
  meter
    .createObservableGauge('retail_field_completeness', { description: 'Share of the parses in the shared window that produced the field (0-1)' })
    .addCallback((result) => {
      for (const s of snapshots()) for (const f of s.fields) result.observe(f.completeness, { marketplace: s.marketplace, kind: s.kind, field: f.name, level: f.level });
    });
  meter
    .createObservableGauge('retail_field_baseline', { description: 'Normal completeness of the field: learned per marketplace and kind, declared before' })
    .addCallback((result) => {
      for (const s of snapshots()) for (const f of s.fields) result.observe(f.baseline, { marketplace: s.marketplace, kind: s.kind, field: f.name, level: f.level });
    });
  meter
    .createObservableGauge('retail_field_window_parses', { description: 'Parses in the shared field-health window' })
    .addCallback((result) => {
      for (const s of snapshots()) result.observe(s.parses, { marketplace: s.marketplace, kind: s.kind });
    });
  return {
    parsed(marketplace, health, presence) {
      parses.add(presence.length, { marketplace, kind: health.kind });
      health.fields.forEach((field, i) => {
        const absent = presence.filter((p) => p[i] !== '1').length;
        if (absent > 0) missing.add(absent, { marketplace, kind: health.kind, field: field.name });
      });
    },
  };
}
