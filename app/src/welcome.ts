import type { RunningStack } from './stack.js';

/** A row of the banner's table: a label, a value, and what it is for. */
export type BannerRow = readonly [label: string, value: string, note?: string];

export interface BannerOptions {
  /** Where the marketplace pages come from (the live marketplace, the replay server). */
  readonly upstream: string;
  /** The first line, when the default ("… is running (upstream: …)") would not say plainly enough what runs. */
  readonly headline?: string;
  /** Rows after "Start here" (the demo's catalogue). */
  readonly extraRows?: readonly BannerRow[];
  /** Whether SERVICE_TOKEN was set (kept across restarts) or drawn at this start. */
  readonly tokenFromEnvironment?: boolean;
  /** The US product the "Try it" lines ask for (the demo names one its recordings answer). */
  readonly sampleAsin?: string;
}

/** The product the "Try it" lines ask for on the live marketplace. */
const SAMPLE_ASIN = '0131103628';

/** Whether the development account (and key) is the one of the last start, and where it is kept. */
function developmentAccountRow(stack: RunningStack): BannerRow {
  if (stack.devAccountReused) return ['Development account', 'the same as at the last start', `key kept in ${stack.devKeyFile}`];
  if (stack.devKeyFile) return ['Development account', 'new', `later starts on this data directory keep it: ${stack.devKeyFile}`];
  return ['Development account', 'new', 'a new one at every start with DATABASE_URL'];
}

function table(rows: readonly BannerRow[]): string[] {
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  return rows.map(([label, value, note]) => `  ${label.padEnd(width)}${value}${note ? `  (${note})` : ''}`);
}

/**
 * What the person who ran `npm start` (or `npm run demo`) needs to reach every interface: the
 * landing page first, the HTTP and gRPC addresses, the service token gRPC needs, the development
 * key and its plan, and calls to paste.
 */
export function formatBanner(stack: RunningStack, options: BannerOptions): string {
  const { url, devKey, devPlan, coreAddress, watcherAddress, serviceToken } = stack;
  const plan = Number.isFinite(devPlan.ratePerSecond) ? `${devPlan.ratePerSecond} requests/s, bursts of ${devPlan.burst}` : 'no rate limit';
  const rows: BannerRow[] = [
    ['Start here', `${url}/`, 'landing page: API reference, GraphiQL, console, docs'],
    ...(options.extraRows ?? []),
    ['HTTP', url, 'REST /api/retail, GraphQL /api/graphql, MCP /api/mcp'],
    ['gRPC core', coreAddress, 'retail.v1.RetailService, plaintext, reflection on'],
    ...(watcherAddress ? [['gRPC watcher', watcherAddress, `retail.v1.WatchService, with x-retail-account: ${stack.devAccountId}`] as const] : []),
    ['Service token', serviceToken, `gRPC: authorization: Bearer <token>; ${options.tokenFromEnvironment ? 'from SERVICE_TOKEN' : 'new every start, set SERVICE_TOKEN to keep one'}`],
    ['API key', devKey, 'HTTP: API-KEY header'],
    ['Plan', `${devPlan.name}: ${plan}; ${stack.devBalance} units`, `account ${stack.devAccountId}`],
    developmentAccountRow(stack),
    stack.webhooksToLoopback
      ? ['Webhooks', 'to public https hosts, and to this machine over http (127.0.0.1, localhost)', 'receive them: npx retail listen --forward-to http://127.0.0.1:3000/hook; WEBHOOK_ALLOW_LOOPBACK=false turns it off']
      : ['Webhooks', 'to public https hosts only', 'WEBHOOK_ALLOW_LOOPBACK=true lets them reach this machine'],
  ];
  const asin = options.sampleAsin ?? SAMPLE_ASIN;
  const grpcurl = `grpcurl -plaintext -H "authorization: Bearer ${serviceToken}"`;
  return [
    options.headline ?? `Retail Data API is running (upstream: ${options.upstream})`,
    '',
    ...table(rows),
    '',
    'Try it:',
    `  curl -s -H "API-KEY: ${devKey}" "${url}/api/retail/product?asin=${asin}&domain=US"`,
    `  curl -s -H "API-KEY: ${devKey}" -H "content-type: application/json" \\`,
    `       -d '{"query":"{ retailProduct(asin: \\"${asin}\\", domain: US) { title price { value currency display } } }"}' ${url}/api/graphql`,
    `  curl -s -H "API-KEY: ${devKey}" -H "content-type: application/json" -H "accept: application/json, text/event-stream" \\`,
    `       -d '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' ${url}/api/mcp`,
    `  ${grpcurl} -d '{"asin":"${asin}","domain":"DOMAIN_US"}' ${coreAddress} retail.v1.RetailService/GetProduct`,
    ...(watcherAddress ? [
      `  ${grpcurl} -H "x-retail-account: ${stack.devAccountId}" ${watcherAddress} retail.v1.WatchService/ListWatches`,
      // The admin CLI asks this running watcher (its PGlite is this process's alone): docs/page-archive.md.
      `  WATCHER_ADDRESS=${watcherAddress} SERVICE_TOKEN=${serviceToken} npm run --silent admin -- pages --domain US --kind product --asin ${asin}`,
    ] : []),
    `  More: ${url}/docs/grpc.md (gRPC), ${url}/api/docs/ (REST), ${url}/api/graphql (GraphiQL)`,
    '',
  ].join('\n');
}

/**
 * Tells the person who ran `npm start` where everything is and how to call it, then whether the
 * marketplace answered the core's start-up probe (it answers within UPSTREAM_TIMEOUT_MS; the banner
 * does not wait for it, so an offline start still shows every address at once).
 */
export async function printWelcome(stack: RunningStack, options: BannerOptions): Promise<void> {
  process.stdout.write(formatBanner(stack, options));
  process.stdout.write(`  ${await stack.marketplaceLine()}\n`);
}
