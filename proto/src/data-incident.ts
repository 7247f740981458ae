/**
 * How an answer says its data is under incident (docs/data-health.md), declared once for the core
 * (its gRPC trailer) and the gateways (the REST header, GraphQL extensions, MCP _meta).
 */
import { DataIncidentState } from './gen/retail/v1/data_health_pb.js';

/** The REST header and, lower-cased, the core's gRPC trailer key. */
export const DATA_INCIDENT_HEADER = 'X-Data-Incident';
export const DATA_INCIDENT_TRAILER = 'x-data-incident';

export type DataIncidentStateName = 'healthy' | 'degraded' | 'major';

const NAMES: Partial<Record<DataIncidentState, DataIncidentStateName>> = {
  [DataIncidentState.HEALTHY]: 'healthy',
  [DataIncidentState.DEGRADED]: 'degraded',
  [DataIncidentState.MAJOR]: 'major',
};

/** The state's name as clients read it; undefined for UNSPECIFIED. */
export const dataIncidentStateName = (state: DataIncidentState): DataIncidentStateName | undefined => NAMES[state];

/** The header's value: `major; fields="price isInStock"` (a structured-field-like item with one parameter). */
export function dataIncidentHeaderValue(state: DataIncidentStateName, fields: readonly string[]): string {
  return `${state}; fields="${fields.join(' ')}"`;
}
