/**
 * Where each operation appears in the GraphQL schema, read from the registry (the proto's
 * `graphql_fields` on the RPC, `graphql_argument_of` on request fields, and its HTTP method: a GET
 * reads, so it is a Query field; anything else changes something, so it is a Mutation field).
 * Nothing here names an operation: the schema, the planner and the resolvers all ask this module.
 */
import { API_REGISTRY, BATCH_REGISTRY, type Operation, type Parameter } from '@retail/gateway-shared';

/** The root field of GraphQL (and of REST `data`) that the product-level operations share. */
export const PRODUCT_ROOT = 'retailProduct';

/** Parameters that are arguments of the nested field named `nested` (`productResults(page:)`); none when it takes none. */
export function nestedParameters(op: Operation, nested: string): Parameter[] {
  return op.parameters.filter((p) => p.graphqlArgumentOf === nested);
}

/** The response field of `op` that holds its data root. */
export function dataRootField(op: Operation) {
  const field = op.response.fields.find((f) => f.jsonName === op.dataRoot);
  if (!field) throw new Error(`${op.name}: no data root field ${op.dataRoot}`);
  return field;
}

export interface GraphqlOperationMap {
  /** Root query fields other than the product root, by field name. */
  readonly roots: ReadonlyMap<string, Operation>;
  /** Root mutation fields (operations whose REST method is not GET), by field name. */
  readonly mutations: ReadonlyMap<string, Operation>;
  /** The operation that fills the whole product record (`graphql_fields: "retailProduct"`). */
  readonly product: Operation;
  /** Fields of RetailProduct filled by another operation, by field name (`retailProduct.<field>`). */
  readonly productFields: ReadonlyMap<string, Operation>;
}

function build(): GraphqlOperationMap {
  const roots = new Map<string, Operation>();
  const mutations = new Map<string, Operation>();
  const productFields = new Map<string, Operation>();
  let product: Operation | undefined;
  for (const op of API_REGISTRY) {
    for (const path of op.graphqlFields) {
      if (op.httpMethod !== 'GET') {
        if (!/^[A-Za-z]\w*$/.test(path)) throw new Error(`${op.name}: mutation field ${path} must be a root field`);
        mutations.set(path, op);
        continue;
      }
      const [root, field, ...rest] = path.split('.');
      if (!root || rest.length > 0) throw new Error(`${op.name}: unsupported graphql field ${path}`);
      if (field === undefined && root === PRODUCT_ROOT) product = op;
      else if (field === undefined) roots.set(root, op);
      else if (root === PRODUCT_ROOT) productFields.set(field, op);
      else throw new Error(`${op.name}: nested graphql field ${path} outside ${PRODUCT_ROOT}`);
    }
  }
  if (!product) throw new Error(`no operation fills ${PRODUCT_ROOT}`);
  return { roots, mutations, product, productFields };
}

export const GRAPHQL_OPERATIONS: GraphqlOperationMap = build();

/**
 * The batch's list field (`retailProducts`, BatchLookup's graphql_fields): one RetailProduct per
 * element of its list argument, every element planned as `retailProduct(asin: <element>, …)` and
 * all their calls sent as one BatchLookup. The list argument is the product's `asin` parameter
 * made a required list (`asins`); the product's other non-lookup arguments (domain) apply to all.
 */
export const BATCH_FIELD = BATCH_REGISTRY.graphqlField;

function batchListParameter(): Parameter {
  const asin = GRAPHQL_OPERATIONS.product.parameters.find((p) => p.name === 'asin');
  if (!asin) throw new Error(`${PRODUCT_ROOT} has no asin parameter for ${BATCH_FIELD}`);
  return { ...asin, name: 'asins', kind: 'string-list', required: true, oneOfGroup: undefined, description: `Product identifiers, 1 to ${BATCH_REGISTRY.maxItems} lookups in all; one product per entry, in order.` };
}

export const BATCH_LIST_PARAMETER: Parameter = batchListParameter();
