/**
 * Planning before execution: walks a validated document and lists the core calls it will make,
 * so the complexity bound is checked and the units are held before any work. Each selected
 * operation field is one call; `retailProduct(gtin: …) { asin gtin }` is one conversion call;
 * aliases are several calls. The resolvers execute exactly this plan and nothing else.
 */
import {
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLArgument,
  type GraphQLError,
  type GraphQLObjectType,
  type GraphQLSchema,
  Kind,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isObjectType,
  valueFromAST,
} from './graphql.js';
import { type Operation, type Parameter, displayName, parseParameters } from '@retail/gateway-shared';
import { type CollectContext, collectFields, collectSubfields, selectionDepth } from './collect.js';
import { GRAPHQL_OPERATIONS, PRODUCT_ROOT, argumentCarryingFields, dataRootField, nestedParameters } from './operation-map.js';

/** One core call the request will make. */
export interface PlannedCall {
  readonly id: number;
  readonly operation: Operation;
  /** Init of the operation's request message, already shape-checked. */
  readonly request: Record<string, unknown>;
}

/** The calls behind one root field (by response key) and which sub-field each call fills. */
export interface RootPlan {
  readonly responseKey: string;
  readonly calls: readonly PlannedCall[];
  /** Sub-field response key → the call whose data fills it. */
  readonly fieldCalls: ReadonlyMap<string, PlannedCall>;
}

export interface RequestPlan {
  readonly roots: ReadonlyMap<string, RootPlan>;
  readonly calls: readonly PlannedCall[];
  readonly depth: number;
}

/** A reason the request is refused before any work (always HTTP 400). */
export interface PlanError {
  readonly message: string;
  readonly path?: string[];
}

export type PlanResult =
  | { readonly ok: true; readonly plan: RequestPlan }
  | { readonly ok: false; readonly errors: PlanError[]; readonly operations: readonly string[] };

export interface PlanLimits {
  readonly maxDepth: number;
  readonly maxOperations: number;
}

export interface PlanInput {
  readonly document: DocumentNode;
  readonly operationName?: string | undefined;
  readonly variables?: Readonly<Record<string, unknown>> | undefined;
}

type Args = Record<string, unknown>;

/** Only the arguments the client wrote: a schema default (`domain = US`) must not override a URL's host. */
function explicitArguments(defs: readonly GraphQLArgument[], nodes: readonly ArgumentNode[] | undefined, variables: Readonly<Args>): Args {
  const out: Args = {};
  for (const node of nodes ?? []) {
    const def = defs.find((d) => d.name === node.name.value);
    if (!def) continue;
    if (node.value.kind === Kind.VARIABLE) {
      const name = node.value.name.value;
      if (Object.hasOwn(variables, name)) out[def.name] = variables[name];
      continue;
    }
    const value = valueFromAST(node.value, def.type, variables);
    if (value !== undefined) out[def.name] = value;
  }
  return out;
}

function pick(args: Args, parameters: readonly Parameter[]): Args {
  const out: Args = {};
  for (const p of parameters) if (Object.hasOwn(args, p.name)) out[p.name] = args[p.name];
  return out;
}

/** Fields of the message an operation fills under its data root. */
function filledFields(op: Operation): Set<string> {
  const root = dataRootField(op);
  return new Set(root.message ? root.message.fields.map((f) => f.jsonName) : []);
}

const PRODUCT_OPERATIONS: readonly Operation[] = [GRAPHQL_OPERATIONS.product, ...new Set(GRAPHQL_OPERATIONS.productFields.values())];
const FILLS = new Map(PRODUCT_OPERATIONS.map((op) => [op, filledFields(op)]));
/** Lookup keys of the product (`asin`, `url`, `gtin`): the parameters of the `lookup` group. */
const LOOKUP_KEYS = GRAPHQL_OPERATIONS.product.parameters.filter((p) => p.oneOfGroup).map((p) => p.name);

/** Operations able to fill `field` of RetailProduct for a product looked up by `lookupKey`, narrowest first. */
function candidatesFor(field: string, lookupKey: string | undefined): Operation[] {
  const takes = (op: Operation) =>
    lookupKey === undefined ? LOOKUP_KEYS.every((k) => op.parameters.some((p) => p.name === k)) : op.parameters.some((p) => p.name === lookupKey);
  const fills = PRODUCT_OPERATIONS.filter((op) => FILLS.get(op)?.has(field) && takes(op));
  if (fills.length === 0 && lookupKey === undefined) return [GRAPHQL_OPERATIONS.product];
  return fills.sort((a, b) => (FILLS.get(a)?.size ?? 0) - (FILLS.get(b)?.size ?? 0));
}

class Planner {
  readonly calls: PlannedCall[] = [];
  readonly errors: PlanError[] = [];
  readonly operations: string[] = [];

  constructor(private readonly ctx: CollectContext) {}

  private addCall(op: Operation, input: Args): PlannedCall | undefined {
    this.operations.push(op.name);
    const parsed = parseParameters(op, input, 'graphql');
    if (!parsed.ok) {
      this.errors.push(...parsed.errors);
      return undefined;
    }
    const call = { id: this.calls.length, operation: op, request: parsed.request };
    this.calls.push(call);
    return call;
  }

  /**
   * Sub-fields served by one operation: each occurrence of an argument-carrying field
   * (`productResults(page: 2)`) with distinct arguments is its own call; the other fields ride
   * on the first call (or on one made without nested arguments).
   */
  private planOperation(op: Operation, rootArgs: Args, type: GraphQLObjectType, fields: readonly [string, FieldNode[]][], fieldCalls: Map<string, PlannedCall>, calls: PlannedCall[]): void {
    const carrying = argumentCarryingFields(op);
    const byArgs = new Map<string, PlannedCall | undefined>();
    const riders: string[] = [];
    for (const [key, nodes] of fields) {
      const node = nodes[0] as FieldNode;
      const name = node.name.value;
      if (!carrying.has(name)) {
        riders.push(key);
        continue;
      }
      const def = type.getFields()[name];
      const nested = explicitArguments(def?.args ?? [], node.arguments, this.ctx.variables);
      const signature = JSON.stringify(nested);
      if (!byArgs.has(signature)) {
        const call = this.addCall(op, { ...pick(rootArgs, op.parameters), ...pick(nested, nestedParameters(op, name)) });
        byArgs.set(signature, call);
        if (call) calls.push(call);
      }
      const call = byArgs.get(signature);
      if (call) fieldCalls.set(key, call);
    }
    if (riders.length === 0 && byArgs.size > 0) return;
    let first = byArgs.size > 0 ? [...byArgs.values()][0] : this.addCall(op, pick(rootArgs, op.parameters));
    if (byArgs.size === 0 && first) calls.push(first);
    if (first) for (const key of riders) fieldCalls.set(key, first);
  }

  planRoot(queryType: GraphQLObjectType, responseKey: string, nodes: FieldNode[]): RootPlan | undefined {
    const node = nodes[0] as FieldNode;
    const name = node.name.value;
    const def = queryType.getFields()[name];
    if (!def) return undefined;
    const args = explicitArguments(def.args, node.arguments, this.ctx.variables);
    const named = getNamedType(def.type);
    const subfields = isObjectType(named) ? [...collectSubfields(this.ctx, named, nodes)].filter(([, n]) => n[0]?.name.value !== '__typename') : [];
    const fieldCalls = new Map<string, PlannedCall>();
    const calls: PlannedCall[] = [];
    if (name === PRODUCT_ROOT && isObjectType(named)) {
      this.planProduct(named, responseKey, args, subfields, fieldCalls, calls);
    } else {
      const op = GRAPHQL_OPERATIONS.roots.get(name);
      if (!op || !isObjectType(named)) return undefined;
      this.planOperation(op, args, named, subfields, fieldCalls, calls);
    }
    return { responseKey, calls, fieldCalls };
  }

  private planProduct(type: GraphQLObjectType, responseKey: string, args: Args, subfields: [string, FieldNode[]][], fieldCalls: Map<string, PlannedCall>, calls: PlannedCall[]): void {
    const given = LOOKUP_KEYS.filter((k) => args[k] !== undefined && args[k] !== null);
    if (subfields.length === 0) return;
    // No key or several: the core is the authority on that rule, so every field goes to the
    // operations that take the whole lookup group, and the core answers as it does on REST.
    const lookup = given.length === 1 ? given[0] : undefined;
    // Fields only one operation can fill decide first; the rest ride on a chosen one if it can.
    const chosen = new Set<Operation>();
    const candidates = new Map<string, Operation[]>();
    for (const [key, nodes] of subfields) {
      const field = (nodes[0] as FieldNode).name.value;
      const ops = candidatesFor(field, lookup);
      if (ops.length === 0) {
        this.errors.push({ message: `${field} cannot be selected when the product is looked up by ${lookup ?? 'several keys'}`, path: [responseKey, key] });
        continue;
      }
      candidates.set(key, ops);
      if (ops.length === 1) chosen.add(ops[0] as Operation);
    }
    const byOperation = new Map<Operation, [string, FieldNode[]][]>();
    for (const entry of subfields) {
      const ops = candidates.get(entry[0]);
      if (!ops) continue;
      const op = ops.find((o) => chosen.has(o)) ?? (ops[0] as Operation);
      chosen.add(op);
      byOperation.set(op, [...(byOperation.get(op) ?? []), entry]);
    }
    for (const [op, fields] of byOperation) this.planOperation(op, args, type, fields, fieldCalls, calls);
  }
}

/** A variable coercion error names its variable, as a parameter error names its parameter. */
function variableError(error: GraphQLError): PlanError {
  const node = error.nodes?.[0];
  return node?.kind === Kind.VARIABLE_DEFINITION ? { message: error.message, path: [node.variable.name.value] } : { message: error.message };
}

/** Plans a parsed and validated document. */
export function planRequest(schema: GraphQLSchema, input: PlanInput, limits: PlanLimits): PlanResult {
  const operation = getOperationAST(input.document, input.operationName);
  if (!operation) {
    const message = input.operationName ? `unknown operation named ${input.operationName}` : 'the document must name the operation to run (operationName)';
    return { ok: false, errors: [{ message }], operations: [] };
  }
  const declared = new Set((operation.variableDefinitions ?? []).map((d) => d.variable.name.value));
  // Like an unknown REST query parameter, a variable the operation does not declare is refused.
  const undeclared = Object.keys(input.variables ?? {}).filter((name) => !declared.has(name));
  if (undeclared.length > 0) {
    return { ok: false, errors: undeclared.map((name) => ({ message: `unknown variable ${displayName(name)}: the operation does not declare it`, path: [name] })), operations: [] };
  }
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], { ...(input.variables ?? {}) }, { maxErrors: 10 });
  if (coerced.errors) return { ok: false, errors: coerced.errors.map(variableError), operations: [] };
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of input.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const ctx: CollectContext = { schema, fragments, variables: coerced.coerced };
  const queryType = schema.getQueryType();
  if (operation.operation !== 'query' || !queryType) return { ok: false, errors: [{ message: 'only queries are supported' }], operations: [] };

  const planner = new Planner(ctx);
  const depth = selectionDepth(ctx, operation.selectionSet);
  const roots = new Map<string, RootPlan>();
  for (const [key, nodes] of collectFields(ctx, queryType, operation.selectionSet)) {
    const root = planner.planRoot(queryType, key, nodes);
    if (root) roots.set(key, root);
  }
  const errors = [...planner.errors];
  if (depth > limits.maxDepth) errors.unshift({ message: `the query is ${depth} levels deep; at most ${limits.maxDepth} are allowed` });
  const count = planner.operations.length;
  if (count > limits.maxOperations) {
    errors.unshift({ message: `the query performs ${count} operations; at most ${limits.maxOperations} are allowed per request` });
  }
  if (errors.length > 0) return { ok: false, errors, operations: planner.operations };
  return { ok: true, plan: { roots, calls: planner.calls, depth } };
}
