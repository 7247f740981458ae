/**
 * `skipOnIncident` on MCP (docs/data-health.md): every lookup tool takes it as the REST parameter
 * it is (and the batch and job tools in each item's params), but its schema in `tools/list` is its
 * type and values alone, without the proto's description, and the server instructions say once what
 * it does, as for listLimit and cursor: 16 tools carry it, and every listing stays within its 20 KB
 * (tools.test.ts). The same holds for `fields` inside the batch and job tools' items: there its schema
 * is its type alone (the instructions say what it is; a lookup tool's own `fields` keeps the short
 * description of answer-arguments.ts).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonSchema } from '@retail/gateway-shared';

const NAME = 'skipOnIncident';

/** What the server instructions say once about it. */
export const INCIDENT_INSTRUCTIONS =
  'skipOnIncident (DEGRADED or MAJOR) refuses a lookup, uncharged, while the pages it reads are under a data incident of that severity or worse (503, retry later); without it such an answer carries _meta.dataIncident.';

const isSchema = (value: unknown): value is JsonSchema => typeof value === 'object' && value !== null;

const FIELDS = 'fields';

/** The schema with every `skipOnIncident` property, at any depth, reduced to its type and values, and every nested `fields` to its type. */
function compacted(schema: unknown, nested: boolean): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compacted(item, nested));
  if (!isSchema(schema)) return schema;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = compacted(value, nested || key === 'properties');
  const properties = out.properties;
  if (isSchema(properties) && isSchema(properties[NAME])) {
    const declared = properties[NAME];
    out.properties = { ...properties, [NAME]: { type: declared.type, enum: declared.enum } };
  }
  if (nested && isSchema(out.properties) && isSchema(out.properties[FIELDS])) out.properties = { ...out.properties, [FIELDS]: { type: 'string' } };
  return out;
}

/** The tool with its input schema's `skipOnIncident` arguments compacted. */
export function withCompactIncidentArguments(tool: Tool): Tool {
  return { ...tool, inputSchema: compacted(tool.inputSchema, false) as Tool['inputSchema'] };
}
