/**
 * The CLI's commands, derived from the operation registry (the proto's `(retail.v1.operation)` and
 * `(retail.v1.parameter)` options): one command per REST operation, named after its MCP tool
 * (`retail_product_offers` → `product-offers`), one flag per parameter (`searchTerm` →
 * `--search-term`), its help from the declared rules. Nothing about an operation is typed here.
 */
import { API_REGISTRY, type Operation, type Parameter } from '@retail/gateway-shared/registry';

export interface CliCommand {
  /** `product`, `search`, `watch-create`, ... */
  readonly name: string;
  readonly op: Operation;
  /** The parameters bare arguments fill, in order (`retail product B0…` → asin). */
  readonly positionals: readonly Parameter[];
}

/** `retail_product_offers` → `product-offers`. */
export function commandName(op: Operation): string {
  return op.mcpTool.replace(/^retail_/, '').replaceAll('_', '-');
}

/** A parameter's flag without dashes: its wire name in kebab case (commander maps it back to the wire name). */
export function flagName(p: Parameter): string {
  return p.name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

/**
 * What bare arguments fill: the required string parameters in declaration order (a seller id, a
 * search term, a watch id), or else the first string member of the operation's exactly-one-of group
 * (asin of asin/url/gtin, categoryId of categoryId/url).
 */
function positionalsOf(op: Operation): Parameter[] {
  const required = op.parameters.filter((p) => p.required && p.kind === 'string');
  if (required.length > 0) return required;
  const member = op.parameters.find((p) => p.oneOfGroup !== undefined && p.kind === 'string');
  return member ? [member] : [];
}

/** One line of rules for a parameter's help, from its declared rules. */
export function describeParameter(p: Parameter): string {
  const rules: string[] = [];
  if (p.enumValues) rules.push(`one of ${p.enumValues.join(', ')}`);
  if (p.minimum !== undefined && p.maximum !== undefined) rules.push(`${p.minimum} to ${p.maximum}`);
  else if (p.minimum !== undefined) rules.push(`at least ${p.minimum}`);
  else if (p.maximum !== undefined) rules.push(`at most ${p.maximum}`);
  if (p.maxLength !== undefined) rules.push(`up to ${p.maxLength} characters`);
  if (p.pattern && !p.enumValues) rules.push(`matching ${p.pattern}`);
  if (p.kind === 'string-list' || p.kind === 'enum-list') rules.push('comma-separated');
  if (p.kind === 'object' || p.kind === 'object-list') rules.push(p.kind === 'object' ? 'a JSON object' : 'a JSON array');
  if (p.required) rules.push('required');
  if (p.defaultValue !== undefined) rules.push(`default ${p.defaultValue}`);
  return rules.length > 0 ? `${p.description} (${rules.join('; ')})` : p.description;
}

/** Every command, in registry order. */
export const COMMANDS: readonly CliCommand[] = API_REGISTRY.map((op) => ({ name: commandName(op), op, positionals: positionalsOf(op) }));
