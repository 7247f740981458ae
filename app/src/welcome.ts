import type { RunningStack } from './stack.js';

/** Tells the person who ran `npm start` where everything is and how to call it. */
export function printWelcome(stack: RunningStack, upstream: string): void {
  const { url, devKey, coreAddress } = stack;
  process.stdout.write(
    [
      `retail data service on ${url} (core gRPC on ${coreAddress}; upstream: ${upstream})`,
      `development key: ${devKey}`,
      '',
      'Try it:',
      `  curl -s -H "API-KEY: ${devKey}" "${url}/api/retail/product?asin=0131103628&domain=US"`,
      `  curl -s -H "API-KEY: ${devKey}" -H "content-type: application/json" \\`,
      `       -d '{"query":"{ retailProduct(asin: \\"0131103628\\", domain: US) { title price { value currency display } } }"}' ${url}/api/graphql`,
      `  curl -s -H "API-KEY: ${devKey}" -H "content-type: application/json" -H "accept: application/json, text/event-stream" \\`,
      `       -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' ${url}/api/mcp`,
      `  OpenAPI: ${url}/api/openapi.json   account: ${url}/api/account   console: ${url}/console`,
      '',
    ].join('\n'),
  );
}
