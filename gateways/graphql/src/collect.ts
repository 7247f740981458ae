/**
 * Field collection as GraphQL execution does it (fragments, inline fragments, @skip/@include),
 * so the planner sees exactly the fields the executor will resolve.
 */
import {
  type DirectiveNode,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLIncludeDirective,
  type GraphQLObjectType,
  GraphQLSkipDirective,
  Kind,
  type SelectionSetNode,
  getDirectiveValues,
  isAbstractType,
  typeFromAST,
  type GraphQLSchema,
} from './graphql.js';

export interface CollectContext {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variables: Readonly<Record<string, unknown>>;
}

function included(ctx: CollectContext, node: { readonly directives?: readonly DirectiveNode[] }): boolean {
  const skip = getDirectiveValues(GraphQLSkipDirective, node, ctx.variables);
  if (skip?.if === true) return false;
  const include = getDirectiveValues(GraphQLIncludeDirective, node, ctx.variables);
  return include?.if !== false;
}

function applies(ctx: CollectContext, typeCondition: { name: { value: string } } | undefined, type: GraphQLObjectType): boolean {
  if (!typeCondition) return true;
  const conditional = typeFromAST(ctx.schema, { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: typeCondition.name.value } });
  if (conditional === type) return true;
  return conditional !== undefined && isAbstractType(conditional) && ctx.schema.isSubType(conditional, type);
}

/** Fields of `selectionSet` on `type`, grouped by response key (alias or name), in order. */
export function collectFields(
  ctx: CollectContext,
  type: GraphQLObjectType,
  selectionSet: SelectionSetNode,
  out: Map<string, FieldNode[]> = new Map(),
  visited: Set<string> = new Set(),
): Map<string, FieldNode[]> {
  for (const selection of selectionSet.selections) {
    if (!included(ctx, selection)) continue;
    switch (selection.kind) {
      case Kind.FIELD: {
        const key = selection.alias?.value ?? selection.name.value;
        const list = out.get(key);
        if (list) list.push(selection);
        else out.set(key, [selection]);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        if (applies(ctx, selection.typeCondition, type)) collectFields(ctx, type, selection.selectionSet, out, visited);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        const fragment = ctx.fragments[name];
        if (visited.has(name) || !fragment || !applies(ctx, fragment.typeCondition, type)) break;
        visited.add(name);
        collectFields(ctx, type, fragment.selectionSet, out, visited);
        break;
      }
    }
  }
  return out;
}

/** Sub-fields selected on the merged selection sets of one response key's field nodes. */
export function collectSubfields(ctx: CollectContext, type: GraphQLObjectType, nodes: readonly FieldNode[]): Map<string, FieldNode[]> {
  const out = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  for (const node of nodes) if (node.selectionSet) collectFields(ctx, type, node.selectionSet, out, visited);
  return out;
}

/**
 * Depth of a selection set (a leaf field is depth 1), following fragments. Introspection fields
 * (`__schema`, `__type`) are free and left out, so standard introspection queries always pass.
 */
export function selectionDepth(ctx: CollectContext, selectionSet: SelectionSetNode, seen: ReadonlySet<string> = new Set()): number {
  let max = 0;
  for (const selection of selectionSet.selections) {
    switch (selection.kind) {
      case Kind.FIELD: {
        const name = selection.name.value;
        if (name === '__schema' || name === '__type') break;
        const below = selection.selectionSet ? selectionDepth(ctx, selection.selectionSet, seen) : 0;
        max = Math.max(max, 1 + below);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        max = Math.max(max, selectionDepth(ctx, selection.selectionSet, seen));
        break;
      case Kind.FRAGMENT_SPREAD: {
        const name = selection.name.value;
        const fragment = ctx.fragments[name];
        // Validation rejects fragment cycles; the guard only keeps this walk finite regardless.
        if (!fragment || seen.has(name)) break;
        max = Math.max(max, selectionDepth(ctx, fragment.selectionSet, new Set([...seen, name])));
        break;
      }
    }
  }
  return max;
}
