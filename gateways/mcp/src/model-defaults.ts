/**
 * Defaults an MCP tool has for a model where the REST parameter's default suits a chart: product
 * history answers its summary (every snapshot of the period in numbers) and at most 10 points, not
 * 500. A client that gives the parameter gets what it asked for. Declared here once: the tool's
 * input schema shows the default and the call applies it.
 */
import type { JsonSchema } from '@retail/gateway-shared';

const MODEL_DEFAULTS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  retail_product_history: { maxPoints: 10 },
};

/** The arguments with the tool's model defaults filled in where the client gave none. */
export function withModelDefaults(tool: string, args: Record<string, unknown>): Record<string, unknown> {
  const defaults = MODEL_DEFAULTS[tool];
  if (!defaults) return args;
  const missing = Object.entries(defaults).filter(([name]) => args[name] === undefined);
  return missing.length === 0 ? args : { ...args, ...Object.fromEntries(missing) };
}

/** The input schema's properties with the model defaults as their `default`. */
export function withModelDefaultSchemas(tool: string, properties: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const defaults = MODEL_DEFAULTS[tool];
  if (!defaults) return properties;
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, name in defaults ? { ...schema, default: defaults[name] } : schema]));
}
