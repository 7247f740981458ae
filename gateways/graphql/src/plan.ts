/**
 * Planning, before any work: the core calls a validated operation makes, so the complexity bound
 * is checked and the units are held first. Each selected operation field is one call (aliases are
 * several); `retailProduct(gtin: …) { asin gtin }` is one conversion call. graphql-js's executor
 * collects the fields, so the plan is what execution resolves; the resolvers run only the plan.
 */
import { type DocumentNode, type FieldNode, type FragmentDefinitionNode, type GraphQLField, type GraphQLObjectType, type GraphQLSchema, Kind } from './graphql.js';
import { collectFields, collectSubfields, getArgumentValues, getNamedType, getOperationAST, getVariableValues, isObjectType } from './graphql.js';
import { BATCH_REGISTRY, type Operation, type Parameter, type ParameterError, USAGE_ROOT, parseCallArguments } from '@retail/gateway-shared';
import { BATCH_FIELD, GRAPHQL_OPERATIONS, PRODUCT_ROOT, dataRootField, nestedParameters } from './operation-map.js';
import { coercionErrors, undeclaredVariables } from './variable-errors.js';

/** One core call: the operation and its request message init, already shape-checked; `batched`: an item of the request's one BatchLookup. */
export type PlannedCall = { readonly operation: Operation; readonly request: Record<string, unknown>; readonly batched?: true };
/**
 * The calls behind one root field and, by sub-field response key, the call whose data fills it. A
 * batch list field (`retailProducts`) has one such plan per element in `elements`; an element keeps
 * its own parameter errors (`errors`), so a malformed entry fails alone, as a REST batch item does.
 */
export type RootPlan = { readonly calls: PlannedCall[]; readonly fieldCalls: Map<string, PlannedCall>; readonly elements?: readonly RootPlan[]; readonly errors?: ParameterError[] };
/** The calls of a request, and its roots by response key (alias or name). */
/** `usageReads`: the `retailUsage` fields (aliases too), free of units but each a query of the record. */
export type RequestPlan = { readonly roots: ReadonlyMap<string, RootPlan>; readonly calls: readonly PlannedCall[]; readonly usageReads: number };
/** Refused before any work (400, after scope and rate limit): the errors, and the operations it named. */
export type PlanResult = { readonly ok: true; readonly plan: RequestPlan } | { readonly ok: false; readonly errors: ParameterError[]; readonly operations: readonly Operation[] };
export type PlanLimits = { readonly maxDepth: number; readonly maxOperations: number };
export type PlanInput = { readonly document: DocumentNode; readonly operationName?: string | null | undefined; readonly variables?: Readonly<Args> | undefined };

type Args = Record<string, unknown>;
type Fields = ReadonlyMap<string, readonly FieldNode[]>;
type Walk = { readonly schema: GraphQLSchema; readonly fragments: Record<string, FragmentDefinitionNode>; readonly variables: Args };

/** Only the arguments the client wrote: a schema default (`domain = US`) must not override a URL's host. */
function writtenArguments(def: GraphQLField<unknown, unknown>, node: FieldNode, variables: Args): Args {
  const values = getArgumentValues(def, node, variables);
  const written = (node.arguments ?? []).filter((a) => a.value.kind !== Kind.VARIABLE || Object.hasOwn(variables, a.value.name.value));
  return Object.fromEntries(written.filter((a) => Object.hasOwn(values, a.name.value)).map((a) => [a.name.value, values[a.name.value]]));
}

function pick(args: Args, parameters: readonly Parameter[]): Args {
  return Object.fromEntries(parameters.filter((p) => Object.hasOwn(args, p.name)).map((p) => [p.name, args[p.name]]));
}

const PRODUCT_OPERATIONS: readonly Operation[] = [GRAPHQL_OPERATIONS.product, ...new Set(GRAPHQL_OPERATIONS.productFields.values())];
/** Fields of the message each product operation fills under its data root. */
const FILLS = new Map(PRODUCT_OPERATIONS.map((op) => [op, new Set(dataRootField(op).message?.fields.map((f) => f.jsonName) ?? [])]));
/** Lookup keys of the product (`asin`, `url`, `gtin`): the parameters of the `lookup` group. */
const LOOKUP_KEYS = GRAPHQL_OPERATIONS.product.parameters.filter((p) => p.oneOfGroup).map((p) => p.name);

/** Operations able to fill `field` of RetailProduct for a product looked up by `lookupKey`, narrowest first. */
function candidatesFor(field: string, lookupKey: string | undefined): Operation[] {
  const takes = (op: Operation) => (lookupKey === undefined ? LOOKUP_KEYS : [lookupKey]).every((k) => op.parameters.some((p) => p.name === k));
  const fills = PRODUCT_OPERATIONS.filter((op) => FILLS.get(op)?.has(field) && takes(op));
  if (fills.length === 0 && lookupKey === undefined) return [GRAPHQL_OPERATIONS.product];
  return fills.sort((a, b) => (FILLS.get(a)?.size ?? 0) - (FILLS.get(b)?.size ?? 0));
}

/** Depth of a selection (a leaf is 1); introspection (`__schema`, `__type`) is free and not counted. */
function depthOf(walk: Walk, type: GraphQLObjectType, fields: Fields): number {
  let max = 0;
  for (const nodes of fields.values()) {
    const name = (nodes[0] as FieldNode).name.value;
    if (name === '__schema' || name === '__type') continue;
    const named = getNamedType(type.getFields()[name]?.type);
    const below = isObjectType(named) ? depthOf(walk, named, collectSubfields(walk.schema, walk.fragments, walk.variables, named, nodes)) : 0;
    max = Math.max(max, 1 + below);
  }
  return max;
}

class Planner {
  readonly errors: ParameterError[] = [];
  readonly operations: Operation[] = [];
  /** The operations of batch elements: one BatchLookup, its items counted apart from `operations`. */
  readonly batchItems: Operation[] = [];

  constructor(private readonly walk: Walk) {}

  private addCall(op: Operation, input: Args, root: RootPlan): PlannedCall | undefined {
    (root.errors ? this.batchItems : this.operations).push(op);
    const parsed = parseCallArguments(op, input, 'graphql');
    if (!parsed.ok) return void (root.errors ?? this.errors).push(...parsed.errors);
    const call: PlannedCall = { operation: op, request: parsed.request, ...(root.errors ? { batched: true as const } : {}) };
    root.calls.push(call);
    return call;
  }

  /**
   * Sub-fields served by one operation: each occurrence of an argument-carrying field
   * (`productResults(page: 2)`) with distinct arguments is its own call; the other fields ride
   * on the first call (or on one made without nested arguments).
   */
  private planOperation(op: Operation, rootArgs: Args, type: GraphQLObjectType, fields: readonly [string, readonly FieldNode[]][], root: RootPlan): void {
    const byArgs = new Map<string, PlannedCall | undefined>();
    const riders: string[] = [];
    for (const [key, nodes] of fields) {
      const node = nodes[0] as FieldNode;
      const def = type.getFields()[node.name.value];
      const parameters = def ? nestedParameters(op, def.name) : [];
      if (!def || parameters.length === 0) {
        riders.push(key);
        continue;
      }
      const nested = writtenArguments(def, node, this.walk.variables);
      const signature = JSON.stringify(nested);
      if (!byArgs.has(signature)) byArgs.set(signature, this.addCall(op, { ...pick(rootArgs, op.parameters), ...pick(nested, parameters) }, root));
      const call = byArgs.get(signature);
      if (call) root.fieldCalls.set(key, call);
    }
    if (riders.length === 0 && byArgs.size > 0) return;
    const first = byArgs.size > 0 ? [...byArgs.values()][0] : this.addCall(op, pick(rootArgs, op.parameters), root);
    if (first) for (const key of riders) root.fieldCalls.set(key, first);
  }

  private planProduct(type: GraphQLObjectType, responseKey: string, args: Args, subfields: [string, readonly FieldNode[]][], root: RootPlan): void {
    // No key or several: the core is the authority on that rule, so every field goes to the
    // operations that take the whole lookup group, and the core answers as it does on REST.
    const given = LOOKUP_KEYS.filter((k) => args[k] !== undefined && args[k] !== null);
    const lookup = given.length === 1 ? given[0] : undefined;
    // Fields only one operation can fill decide first; the rest ride on a chosen one if it can.
    const chosen = new Set<Operation>();
    const candidates = new Map<string, Operation[]>();
    for (const [key, nodes] of subfields) {
      const field = (nodes[0] as FieldNode).name.value;
      const ops = candidatesFor(field, lookup);
      if (ops.length === 0) this.errors.push({ message: `${field} cannot be selected when the product is looked up by ${lookup ?? 'several keys'}`, path: [responseKey, key] });
      else candidates.set(key, ops);
      if (ops.length === 1) chosen.add(ops[0] as Operation);
    }
    const byOperation = new Map<Operation, [string, readonly FieldNode[]][]>();
    for (const entry of subfields) {
      const ops = candidates.get(entry[0]);
      if (!ops) continue;
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- the rule misses noUncheckedIndexedAccess here; tsc needs it
      const op = ops.find((o) => chosen.has(o)) ?? (ops[0] as Operation);
      chosen.add(op);
      byOperation.set(op, [...(byOperation.get(op) ?? []), entry]);
    }
    for (const [op, fields] of byOperation) this.planOperation(op, args, type, fields, root);
  }

  /** A batch list field: each element planned as the product root with its `asins` entry, the shared arguments for all. */
  private planBatch(type: GraphQLObjectType, args: Args, subfields: [string, readonly FieldNode[]][]): RootPlan {
    const { asins, ...shared } = args;
    const elements = (Array.isArray(asins) ? asins : []).map((asin: unknown) => {
      const element: RootPlan = { calls: [], fieldCalls: new Map(), errors: [] };
      this.planProduct(type, BATCH_FIELD, { ...shared, asin }, subfields, element);
      return element;
    });
    return { calls: elements.flatMap((e) => e.calls), fieldCalls: new Map(), elements };
  }

  /** One root field of a query (`operations`: the Query roots) or of a mutation (the Mutation roots, no product root). */
  planRoot(rootType: GraphQLObjectType, operations: ReadonlyMap<string, Operation>, responseKey: string, nodes: readonly FieldNode[]): RootPlan | undefined {
    const def = rootType.getFields()[(nodes[0] as FieldNode).name.value];
    const named = getNamedType(def?.type);
    const op = def && operations.get(def.name);
    const query = rootType === this.walk.schema.getQueryType();
    const product = def?.name === PRODUCT_ROOT && query;
    const batch = def?.name === BATCH_FIELD && query;
    if (!def || !isObjectType(named) || (!product && !batch && !op)) return undefined;
    const args = writtenArguments(def, nodes[0] as FieldNode, this.walk.variables);
    const { schema, fragments, variables } = this.walk;
    const subfields = [...collectSubfields(schema, fragments, variables, named, nodes)].filter(([, n]) => n[0]?.name.value !== '__typename');
    if (batch) return this.planBatch(named, args, subfields);
    const root: RootPlan = { calls: [], fieldCalls: new Map() };
    if (op) this.planOperation(op, args, named, subfields, root);
    else this.planProduct(named, responseKey, args, subfields, root);
    return root;
  }
}

/** Plans a parsed and validated document. */
export function planRequest(schema: GraphQLSchema, input: PlanInput, limits: PlanLimits): PlanResult {
  const refuse = (errors: ParameterError[]): PlanResult => ({ ok: false, errors, operations: [] });
  const operation = getOperationAST(input.document, input.operationName);
  if (!operation) return refuse([{ message: input.operationName ? `unknown operation named ${input.operationName}` : 'the document must name the operation to run (operationName)', path: [] }]);
  const variables = input.variables ?? {};
  const undeclared = undeclaredVariables(operation, variables);
  if (undeclared.length > 0) return refuse(undeclared);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of input.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], { ...variables }, { maxErrors: 10 });
  if (coerced.errors) return refuse(coercionErrors(schema, [operation, ...Object.values(fragments)], variables, coerced.errors));
  const mutation = operation.operation === 'mutation';
  const rootType = mutation ? schema.getMutationType() : operation.operation === 'query' ? schema.getQueryType() : undefined;
  if (!rootType) return refuse([{ message: 'only queries and mutations are supported', path: [] }]);
  const operations = mutation ? GRAPHQL_OPERATIONS.mutations : GRAPHQL_OPERATIONS.roots;

  const walk: Walk = { schema, fragments, variables: coerced.coerced };
  const planner = new Planner(walk);
  // Mutation roots come out in document order, the order graphql-js then runs them one by one.
  const fields = collectFields(schema, fragments, walk.variables, rootType, operation.selectionSet);
  const roots = new Map<string, RootPlan>();
  for (const [key, nodes] of fields) {
    const root = planner.planRoot(rootType, operations, key, nodes);
    if (root) roots.set(key, root);
  }
  const errors = [...planner.errors];
  const depth = depthOf(walk, rootType, fields);
  if (depth > limits.maxDepth) errors.unshift({ message: `the query is ${depth} levels deep; at most ${limits.maxDepth} are allowed`, path: [] });
  // A batch list field's lookups are one BatchLookup: one operation against the bound, 100 lookups at most.
  const lookups = planner.batchItems.length;
  if (lookups > BATCH_REGISTRY.maxItems) errors.unshift({ message: `${BATCH_FIELD} asks for ${lookups} lookups; at most ${BATCH_REGISTRY.maxItems} are allowed per request`, path: [] });
  // A usage history read is free but a database query: each alias of it counts against the bound too.
  const usageReads = mutation ? 0 : [...fields.values()].filter((nodes) => nodes[0]?.name.value === USAGE_ROOT).length;
  const count = planner.operations.length + (lookups > 0 ? 1 : 0) + usageReads;
  if (count > limits.maxOperations) errors.unshift({ message: `the query performs ${count} operations; at most ${limits.maxOperations} are allowed per request`, path: [] });
  if (errors.length > 0) return { ok: false, errors, operations: [...planner.operations, ...planner.batchItems] };
  return { ok: true, plan: { roots, calls: [...roots.values()].flatMap((r) => r.calls), usageReads } };
}
