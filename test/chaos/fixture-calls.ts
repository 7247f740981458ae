/**
 * Calls that succeed against the project's fixture pages when the marketplace behaves, each in its
 * three forms (REST path, GraphQL document, MCP tool call). A GraphQL request is charged per
 * successful operation, so each document says how to count them from its `data` (the errors[] count
 * cannot: two operations failing on one shared page fetch answer one entry).
 */
type GraphqlData = Record<string, unknown> | null | undefined;

export interface FixtureCall {
  readonly rest: string;
  readonly graphql: { readonly query: string; readonly operations: number; readonly succeeded: (data: GraphqlData) => number };
  readonly mcp: { readonly name: string; readonly arguments: Record<string, string> };
}

/** 1 when the operation's root field holds data (a failed operation leaves it null). */
const present = (data: GraphqlData, root: string) => (data?.[root] != null ? 1 : 0);

/** Product (its title filled) and variants (its list filled), each 1 when it succeeded. */
function productAndVariants(data: GraphqlData): number {
  const product = data?.retailProduct as { title?: unknown; variants?: unknown } | null | undefined;
  return (typeof product?.title === 'string' ? 1 : 0) + (Array.isArray(product?.variants) ? 1 : 0);
}

export const FIXTURE_CALLS: readonly FixtureCall[] = [
  {
    rest: '/api/retail/product?asin=B0FXTUS001&domain=US',
    graphql: { query: '{ retailProduct(asin: "B0FXTUS001", domain: US) { title } }', operations: 1, succeeded: (data) => present(data, 'retailProduct') },
    mcp: { name: 'retail_product', arguments: { asin: 'B0FXTUS001', domain: 'US' } },
  },
  {
    rest: '/api/retail/product?asin=B0FXTDE001&domain=DE',
    // Product and variants: two operations in one request, charged separately.
    graphql: { query: '{ retailProduct(asin: "B0FXTDE001", domain: DE) { title variants { asin } } }', operations: 2, succeeded: (data) => productAndVariants(data) },
    mcp: { name: 'retail_product', arguments: { asin: 'B0FXTDE001', domain: 'DE' } },
  },
  {
    rest: '/api/retail/product?asin=B0FXTJP001&domain=JP',
    graphql: { query: '{ retailProduct(asin: "B0FXTJP001", domain: JP) { title } }', operations: 1, succeeded: (data) => present(data, 'retailProduct') },
    mcp: { name: 'retail_product', arguments: { asin: 'B0FXTJP001', domain: 'JP' } },
  },
  {
    rest: '/api/retail/autocomplete?searchTerm=iphone',
    graphql: { query: '{ retailSearchAutocompleteResults(searchTerm: "iphone") { suggestion } }', operations: 1, succeeded: (data) => present(data, 'retailSearchAutocompleteResults') },
    mcp: { name: 'retail_autocomplete', arguments: { searchTerm: 'iphone' } },
  },
  {
    rest: '/api/retail/deals',
    graphql: { query: '{ retailDeals { productResults { pageInfo { currentPage } } } }', operations: 1, succeeded: (data) => present(data, 'retailDeals') },
    mcp: { name: 'retail_deals', arguments: {} },
  },
  {
    rest: '/api/retail/bestseller-categories?domain=DE',
    graphql: { query: '{ retailBestSellerCategories(domain: DE) { categories { id } } }', operations: 1, succeeded: (data) => present(data, 'retailBestSellerCategories') },
    mcp: { name: 'retail_bestseller_categories', arguments: { domain: 'DE' } },
  },
  {
    rest: '/api/retail/author?asin=B0FXAUTH01',
    graphql: { query: '{ retailAuthor(asin: "B0FXAUTH01") { name } }', operations: 1, succeeded: (data) => present(data, 'retailAuthor') },
    mcp: { name: 'retail_author', arguments: { asin: 'B0FXAUTH01' } },
  },
  {
    rest: '/api/retail/category?categoryId=172541',
    graphql: { query: '{ retailProductCategory(categoryId: "172541") { name } }', operations: 1, succeeded: (data) => present(data, 'retailProductCategory') },
    mcp: { name: 'retail_category', arguments: { categoryId: '172541' } },
  },
];
