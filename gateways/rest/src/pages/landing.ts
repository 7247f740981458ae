/**
 * The landing page at `/`: what the service is and where to go from here, for a person who opened
 * the service's address in a browser. Rendered once when the router is built; the links are the
 * pages this deployment (or `npm start`) serves, plus any the composition adds (the demo catalogue).
 */
import { escapeHtml, pageHead } from '@retail/gateway-shared';

export interface LandingLink {
  readonly href: string;
  readonly title: string;
  readonly description: string;
}

export interface LandingOptions {
  /** Served pages, in the order shown under "Try it in the browser". */
  readonly tryLinks: readonly LandingLink[];
  /** Served references (documentation, the OpenAPI document), under "Read". */
  readonly readLinks: readonly LandingLink[];
}

/** Health and readiness: routed to this gateway by the chart's Ingress, served by `npm start`. */
const OPERATE_LINKS: readonly LandingLink[] = [
  { href: '/healthz', title: 'Health', description: 'The process answers (liveness).' },
  { href: '/readyz', title: 'Readiness', description: 'The core and the unit ledger answer; 503 while they do not.' },
];

/** The four interfaces: name, where, what. */
const INTERFACES: readonly (readonly [string, string, string])[] = [
  ['REST', 'GET /api/retail/…', 'One path per operation; JSON answers as { data }.'],
  ['GraphQL', 'POST /api/graphql', 'One field per operation, several in one request.'],
  ['MCP', 'POST /api/mcp', 'One tool per operation, for AI agents (Streamable HTTP).'],
  ['gRPC', 'retail.v1.RetailService', 'For internal services, with the service token (docs: grpc.md).'],
];

function linkList(links: readonly LandingLink[]): string {
  const items = links.map(
    (link) => `      <li><a href="${escapeHtml(link.href)}">${escapeHtml(link.title)}</a><span>${escapeHtml(link.description)}</span></li>`,
  );
  return `<ul class="links">\n${items.join('\n')}\n    </ul>`;
}

export function renderLandingPage(options: LandingOptions): string {
  const interfaces = INTERFACES.map(
    ([name, where, what]) => `      <li><strong>${name}</strong> <code>${escapeHtml(where)}</code><span>${escapeHtml(what)}</span></li>`,
  );
  return `<!doctype html>
<html lang="en">
${pageHead('Retail Data API', ['/api/docs/theme.css', '/api/docs/site.css'])}
<body class="page">
  <header class="site-header"><p class="brand">Retail Data API</p></header>
  <main id="main">
    <h1>Product data from 13 retail marketplaces, normalized</h1>
    <p class="lead">Products, offers, reviews, searches, best sellers, sellers and categories of a large online
    retail marketplace (US UK CA DE FR IT ES AU IN MX BR JP PL), the same records over REST, GraphQL, MCP and gRPC,
    plus watches with price and stock history and signed webhooks. Every call needs an API key in the
    <code>API-KEY</code> header: create one in the console (<code>npm start</code> prints a development key).
    One unit per successful call; errors are never charged.</p>

    <h2>Try it in the browser</h2>
    ${linkList(options.tryLinks)}

    <h2>Read</h2>
    ${linkList(options.readLinks)}

    <h2>Interfaces</h2>
    <ul class="links interfaces">
${interfaces.join('\n')}
    </ul>

    <h2>Operate</h2>
    ${linkList(OPERATE_LINKS)}
  </main>
</body>
</html>
`;
}
