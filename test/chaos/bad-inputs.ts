/**
 * Generators of bad requests for the fuzz tests (fast-check, sampled from a fixed seed). Every
 * case carries at least one defect the contract says is refused (an unknown parameter, a value
 * outside its rules, a missing or doubled lookup key, broken syntax), so none of them may succeed
 * or be charged; random noise around the defect explores the parsers.
 */
import fc from 'fast-check';
import { REGISTRY, type Operation, type Parameter } from '@retail/gateway-shared';

const PRODUCT = REGISTRY.find((op) => op.name === 'GetProduct')!;

/** Any text, astral planes and lone surrogates' neighbours included. */
const anyText = (maxLength = 40) => fc.string({ unit: 'grapheme', maxLength });
const junkIdentifier = fc.stringMatching(/^[a-z][a-zA-Z0-9_]{0,12}$/).map((s) => `zz${s}`);

/** A value the parameter's rules refuse (docs/contract.md: page 1–100, limit ≤ 60, enums, patterns). */
function badValue(param: Parameter): fc.Arbitrary<string> {
  switch (param.kind) {
    case 'integer':
    case 'number':
      return fc.constantFrom('0', '-1', 'abc', '0x10', '99999999999999999999', 'NaN', '1,5', param.kind === 'integer' ? '1.5' : 'Infinity');
    case 'boolean':
      return fc.constantFrom('maybe', '2', 'yes please', 'nul');
    case 'enum':
    case 'enum-list':
      return fc.constantFrom('XX', 'ZZ_TOP', '0', '?', 'NOT_A_VALUE');
    case 'field-mask':
      // Paths no record has, and lists with no path at all.
      return fc.constantFrom('zzNoField', 'title.zz', ',', '..', 'price.valu.x');
    default:
      if (param.pattern) {
        const pattern = new RegExp(param.pattern);
        return anyText(30).filter((s) => s.length > 0 && !pattern.test(s));
      }
      if (param.maxLength) return fc.constant('x'.repeat(param.maxLength + 1));
      throw new Error(`no refused value known for ${param.name}`);
  }
}

/** One refused parameter set for `op`, as name/value pairs. */
function refusedParameters(op: Operation): fc.Arbitrary<[string, string][]> {
  const defects: fc.Arbitrary<[string, string][]>[] = [
    // A parameter the operation does not take.
    fc.tuple(junkIdentifier, anyText()).map(([name, value]) => [[name, value]]),
  ];
  const constrained = op.parameters.filter((p) => (p.kind !== 'string' && p.kind !== 'string-list') || p.pattern || p.maxLength);
  if (constrained.length > 0) {
    defects.push(fc.constantFrom(...constrained).chain((p) => badValue(p).map((v): [string, string][] => [[p.name, v]])));
  }
  const lookup = op.parameters.filter((p) => p.oneOfGroup);
  if (lookup.length >= 2) {
    // Two lookup keys at once.
    defects.push(fc.constant<[string, string][]>([['asin', 'B0FXTUS001'], ['gtin', '012345678905']]));
  }
  return fc.array(fc.tuple(junkIdentifier, anyText(20)), { maxLength: 2 }).chain((noise) => fc.oneof(...defects).map((defect) => [...defect, ...noise]));
}

export interface RestCase {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
}

const encodePairs = (pairs: [string, string][]) => pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');

/** Header sets: the valid key (most cases, so validation is reached), or refused credentials. */
function credentialHeaders(key: string): fc.Arbitrary<Record<string, string>> {
  const printable = fc.string({ unit: 'binary-ascii', maxLength: 80 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant({ 'API-KEY': key }) },
    { weight: 1, arbitrary: printable.map((k) => ({ 'API-KEY': `rk_${k}` })) },
    { weight: 1, arbitrary: fc.constant({ 'API-KEY': key, authorization: `Bearer ${key.slice(0, -1)}x` }) },
    { weight: 1, arbitrary: printable.map((v) => ({ 'API-KEY': key, 'x-request-id': v, accept: v || '*/*' })) },
    { weight: 1, arbitrary: fc.constant({}) },
  );
}

export function restCases(key: string): fc.Arbitrary<RestCase> {
  const operationCall = fc
    .constantFrom(...REGISTRY)
    .chain((op) => fc.tuple(fc.constant(op.restPath), refusedParameters(op)))
    .map(([path, pairs]) => `${path}?${encodePairs(pairs)}`);
  const oddPath = fc.oneof(
    junkIdentifier.map((j) => `/api/retail/${j}`),
    fc.constantFrom('/api/retail/product?asin=%E0%A4%A', '/api/retail/product?asin=%zz', '/api/retail/product/?asin=B0FXTUS001&asin=B0FXTUS001', '/api/retail//product'),
    anyText(60).map((t) => `/api/retail/product?asin=${encodeURIComponent(t)}&zzx=1`),
    fc.integer({ min: 4_000, max: 12_000 }).map((n) => `/api/retail/search?searchTerm=${'a'.repeat(n)}&page=0`),
  );
  return fc.record({
    method: fc.oneof({ weight: 8, arbitrary: fc.constant('GET') }, { weight: 1, arbitrary: fc.constantFrom('POST', 'PUT', 'DELETE', 'PATCH') }),
    path: fc.oneof({ weight: 4, arbitrary: operationCall }, { weight: 1, arbitrary: oddPath }),
    headers: credentialHeaders(key),
  });
}

export interface BodyCase {
  readonly headers: Record<string, string>;
  readonly body: string;
}

const jsonHeaders = (key: string) => credentialHeaders(key).map((h) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...h }));

const VALID_PRODUCT_QUERY = '{ retailProduct(asin: "B0FXTUS001", domain: US) { title variants { asin } } }';

export function graphqlCases(key: string): fc.Arbitrary<BodyCase> {
  const documents = fc.oneof(
    // Broken syntax: any strict prefix leaves a brace open.
    fc.integer({ min: 1, max: VALID_PRODUCT_QUERY.length - 1 }).map((n) => ({ query: VALID_PRODUCT_QUERY.slice(0, n) })),
    junkIdentifier.map((f) => ({ query: `{ retailProduct(asin: "B0FXTUS001") { ${f} } }` })),
    junkIdentifier.map((f) => ({ query: `{ ${f} }` })),
    badValue(PRODUCT.parameters.find((p) => p.name === 'asin')!).map((a) => ({ query: `{ retailProduct(asin: ${JSON.stringify(a)}) { title } }` })),
    fc.stringMatching(/^[A-Z]{2,6}$/).filter((d) => !['US', 'UK', 'CA', 'DE', 'FR', 'IT', 'ES', 'AU', 'IN', 'MX', 'BR', 'JP', 'PL'].includes(d)).map((d) => ({ query: `{ retailProduct(asin: "B0FXTUS001", domain: ${d}) { title } }` })),
    fc.constantFrom(0, -1, 101, 2147483647).map((p) => ({ query: `{ retailProduct(asin: "B0FXTUS001") { offersPaginated(page: ${p}) { pageInfo { currentPage } } } }` })),
    fc.constant({ query: '{ retailProduct(asin: "B0FXTUS001", gtin: "012345678905") { title } }' }),
    fc.jsonValue().filter((v) => typeof v !== 'string').map((v) => ({ query: 'query($a: String!) { retailProduct(asin: $a) { title } }', variables: { a: v } })),
    fc.constant({ query: 'query($a: String!) { retailProduct(asin: $a) { title } }' }),
    fc.integer({ min: 11, max: 30 }).map((n) => ({ query: `{ ${Array.from({ length: n }, (_, i) => `a${i}: retailSearchAutocompleteResults(searchTerm: "iphone") { suggestion }`).join(' ')} }` })),
    fc.constant({ query: 'mutation { retailProduct }' }),
    fc.constant({ query: '{ a: retailDeals { productResults { pageInfo { currentPage } } } }', operationName: 'Missing' }),
    fc.jsonValue().map((v) => ({ query: v === null || typeof v === 'string' ? 42 : v })),
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(jsonHeaders(key), documents).map(([headers, doc]) => ({ headers, body: JSON.stringify(doc) })) },
    { weight: 1, arbitrary: fc.tuple(jsonHeaders(key), anyText(200)).map(([headers, body]) => ({ headers, body })) },
    { weight: 1, arbitrary: fc.tuple(jsonHeaders(key), fc.array(documents, { minLength: 2, maxLength: 3 })).map(([headers, docs]) => ({ headers, body: JSON.stringify(docs) })) },
    { weight: 1, arbitrary: fc.tuple(jsonHeaders(key), fc.jsonValue()).filter(([, v]) => !(typeof v === 'object' && v !== null && 'query' in v)).map(([headers, v]) => ({ headers, body: JSON.stringify(v) })) },
    // A valid document from a client that accepts no JSON: refused by content negotiation (406), never served or charged.
    {
      weight: 1,
      arbitrary: fc
        .tuple(credentialHeaders(key), fc.constantFrom('image/png', 'text/html', 'application/xml', 'text/event-stream'))
        .map(([headers, accept]) => ({ headers: { 'content-type': 'application/json', ...headers, accept }, body: JSON.stringify({ query: VALID_PRODUCT_QUERY }) })),
    },
  );
}

export function mcpCases(key: string): fc.Arbitrary<BodyCase> {
  const id = fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.string({ minLength: 1, maxLength: 8 }));
  const toolCallWithBadArguments = fc
    .constantFrom(...REGISTRY)
    .chain((op) => fc.tuple(fc.constant(op.mcpTool), refusedParameters(op)))
    .map(([name, pairs]) => ({ name, arguments: Object.fromEntries(pairs) }));
  const messages = fc.oneof(
    fc.tuple(id, toolCallWithBadArguments).map(([i, params]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params })),
    fc.tuple(id, fc.jsonValue()).map(([i, v]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: v, zzextra: 1 } } })),
    fc.tuple(id, junkIdentifier).map(([i, name]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: {} } })),
    fc.tuple(id, fc.jsonValue()).map(([i, params]) => ({ jsonrpc: '2.0', id: i, method: 'tools/call', params: typeof params === 'object' && params !== null && !Array.isArray(params) ? { ...params, name: 42 } : params })),
    fc.tuple(id, junkIdentifier).map(([i, m]) => ({ jsonrpc: '2.0', id: i, method: `zz/${m}` })),
    fc.tuple(id, fc.constantFrom('1.0', '3.0', 2, null)).map(([i, v]) => ({ jsonrpc: v, id: i, method: 'tools/list' })),
    fc.jsonValue().map((i) => ({ jsonrpc: '2.0', id: typeof i === 'object' && i !== null ? i : { i }, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: 'B0FXTUS001' } } })),
  );
  return fc.oneof(
    { weight: 6, arbitrary: fc.tuple(jsonHeaders(key), messages).map(([headers, m]) => ({ headers, body: JSON.stringify(m) })) },
    { weight: 1, arbitrary: fc.tuple(jsonHeaders(key), anyText(200)).map(([headers, body]) => ({ headers, body: `{${body}` })) },
    { weight: 1, arbitrary: fc.tuple(jsonHeaders(key), fc.array(messages, { minLength: 1, maxLength: 3 })).map(([headers, ms]) => ({ headers, body: JSON.stringify(ms) })) },
    { weight: 1, arbitrary: fc.tuple(jsonHeaders(key), fc.integer({ min: 65 * 1024, max: 90 * 1024 })).map(([headers, n]) => ({ headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'retail_product', arguments: { asin: 'B0FXTUS001', zzpad: 'p'.repeat(n) } } }) })) },
    { weight: 1, arbitrary: fc.tuple(credentialHeaders(key), messages).map(([headers, m]) => ({ headers: { 'content-type': 'application/json', accept: 'image/png', ...headers }, body: JSON.stringify(m) })) },
  );
}

/** Deterministic cases: the same `count` inputs from `seed` on every run. */
export function sampleCases<T>(arbitrary: fc.Arbitrary<T>, seed: number, count: number): T[] {
  return fc.sample(arbitrary, { seed, numRuns: count });
}

/**
 * Paths of the three interfaces, where raw heads are aimed. The REST one carries an unknown
 * parameter, so a head the parser lets through is still refused by the gateway (never charged).
 */
const INTERFACE_PATHS = ['/api/retail/product?asin=B0FXTUS001&zzpoison=1', '/api/graphql', '/api/mcp'] as const;

/**
 * Request heads Node's HTTP parser refuses itself (issue 12, defect 3): raw non-ASCII and control
 * bytes in the request target, oversized heads, broken request lines and header lines, conflicting
 * framing). Each is a whole request as bytes (a body, where there is one, as long as announced).
 */
export function rawHeadCases(key: string): fc.Arbitrary<Buffer> {
  const target = fc.constantFrom(...INTERFACE_PATHS);
  const method = fc.constantFrom('GET', 'POST');
  const tail = (k: string) => `Host: 127.0.0.1\r\nAPI-KEY: ${k}\r\nConnection: close\r\n`;
  const bytes = (...parts: (string | Buffer)[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
  const nonAscii = fc.oneof(
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => /[\u0080-\uffff]/.test(s)).map((s) => Buffer.from(s, 'utf8')),
    fc.uint8Array({ minLength: 1, maxLength: 12 }).map((a) => Buffer.from(a.map((b) => 0x80 | b))),
  );
  const control = fc.integer({ min: 0, max: 31 }).filter((c) => c !== 9).map((c) => Buffer.from([c]));
  return fc.oneof(
    // Non-ASCII bytes in the path or the query.
    fc.tuple(method, target, nonAscii).map(([m, t, b]) => bytes(`${m} ${t}${t.includes('?') ? '&q=' : '/'}`, b, ` HTTP/1.1\r\n${tail(key)}\r\n`)),
    // Control characters in the request target.
    fc.tuple(method, target, control).map(([m, t, c]) => bytes(`${m} ${t}`, c, `x HTTP/1.1\r\n${tail(key)}\r\n`)),
    // A head over Node's 16 KiB limit, in one header or in many.
    fc.tuple(method, target, fc.integer({ min: 17_000, max: 80_000 })).map(([m, t, n]) => bytes(`${m} ${t} HTTP/1.1\r\n${tail(key)}X-Pad: ${'a'.repeat(n)}\r\n\r\n`)),
    fc.tuple(method, target, fc.integer({ min: 200, max: 600 })).map(([m, t, n]) =>
      bytes(`${m} ${t} HTTP/1.1\r\n${tail(key)}${Array.from({ length: n }, (_, i) => `X-H${i}: ${'b'.repeat(60)}\r\n`).join('')}\r\n`),
    ),
    // Broken request lines.
    fc.tuple(target, fc.constantFrom('G@T', 'GET\t', 'get', '', ' GET', 'GE T')).map(([t, m]) => bytes(`${m} ${t} HTTP/1.1\r\n${tail(key)}\r\n`)),
    fc.tuple(method, target, fc.constantFrom('HTTP/9.9', 'HTTP/1', 'HTTQ/1.1', 'HTTP/1.1 extra', '')).map(([m, t, v]) => bytes(`${m} ${t} ${v}\r\n${tail(key)}\r\n`)),
    fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 40 }).filter((s) => !/^[A-Z]+ \S+ HTTP\/1\.[01]\r?\n/.test(s)).map((s) => bytes(`${s}\r\n\r\n`)),
    // Broken header lines.
    fc.tuple(method, target, fc.constantFrom('NoColonHere', 'Bad Header: x', 'X-Null: a\x00b', ' Folded: continuation', 'X-Bell: \x07', ': empty-name')).map(([m, t, h]) =>
      bytes(`${m} ${t} HTTP/1.1\r\n${tail(key)}${h}\r\n\r\n`),
    ),
    // Conflicting or broken framing.
    fc.tuple(target, fc.constantFrom('Content-Length: -1', 'Content-Length: abc', 'Content-Length: 2\r\nContent-Length: 7', 'Content-Length: 2\r\nTransfer-Encoding: chunked', 'Transfer-Encoding: gzip, chunked')).map(([t, h]) =>
      bytes(`POST ${t} HTTP/1.1\r\n${tail(key)}Content-Type: application/json\r\n${h}\r\n\r\n{}`),
    ),
    fc.tuple(target, fc.constantFrom('zz', '-1', 'ffffffffffffffffff')).map(([t, chunk]) =>
      bytes(`POST ${t} HTTP/1.1\r\n${tail(key)}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}\r\n`),
    ),
  );
}
