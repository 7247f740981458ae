import type { MessageInitShape } from '@bufbuild/protobuf';
import { type DataIncidentSchema, DataIncidentState } from '@retail/contract';
import type { ParsedPageSource } from '../cache/parsed-pages.js';
import { isParserId } from '../workers/parser-registry.js';
import { FIELD_HEALTH } from './field-declarations.js';
import type { IncidentKeeper } from './incident-keeper.js';
import type { IncidentRecord } from './incident-store.js';
import { INCIDENT_STATES, type IncidentState } from './incident-rules.js';

/*
 * What a response says about the data behind it (docs/data-health.md): the page kinds one call read
 * (from the cache or the marketplace) and, when one of them is under incident in the call's
 * marketplace, that incident in the response's meta. The gateways turn it into `X-Data-Incident`,
 * GraphQL's `extensions.dataIncident` and MCP's `_meta.dataIncident`; the core's gRPC answer carries
 * it in meta and in the `x-data-incident` trailer.
 */

export type DataIncidentInit = MessageInitShape<typeof DataIncidentSchema>;

export const INCIDENT_STATE_VALUES: Record<IncidentState, DataIncidentState> = {
  healthy: DataIncidentState.HEALTHY,
  degraded: DataIncidentState.DEGRADED,
  major: DataIncidentState.MAJOR,
};

/** The call's view of the parsed-page source, noting the declared kind of every page it reads. */
export function trackKinds(source: ParsedPageSource): { readonly source: ParsedPageSource; kinds(): ReadonlySet<string> } {
  const kinds = new Set<string>();
  return {
    source: {
      parsed(request, parser, parse) {
        const kind = isParserId(parser.id) ? FIELD_HEALTH[parser.id]?.kind : undefined;
        if (kind) kinds.add(kind);
        return source.parsed(request, parser, parse);
      },
    },
    kinds: () => kinds,
  };
}

/** The most severe incident over `kinds` in `marketplace`, as the keeper holds it; undefined when all are healthy. */
export function worstIncident(incidents: Pick<IncidentKeeper, 'record'>, marketplace: string, kinds: Iterable<string>): IncidentRecord | undefined {
  let worst: IncidentRecord | undefined;
  for (const kind of kinds) {
    const record = incidents.record(marketplace, kind);
    if (record.state === 'healthy') continue;
    if (!worst || INCIDENT_STATES.indexOf(record.state) > INCIDENT_STATES.indexOf(worst.state)) worst = record;
  }
  return worst;
}

/** The most severe incident over `kinds` in `marketplace`, or undefined when all are healthy. */
export function incidentOver(incidents: Pick<IncidentKeeper, 'record'>, marketplace: string, kinds: Iterable<string>): DataIncidentInit | undefined {
  const worst = worstIncident(incidents, marketplace, kinds);
  return worst && { state: INCIDENT_STATE_VALUES[worst.state], kind: worst.kind, fields: [...worst.fields] };
}
