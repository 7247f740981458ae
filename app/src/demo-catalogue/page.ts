/**
 * The demo catalogue as one HTML page in the service's look (the shared theme.css and its own
 * stylesheet, served with it by the router from this origin), readable on a 390-px wide phone (cards
 * rather than wide tables; curl lines wrap). A browser has no key to send, so a request is not a link
 * (it would answer 401): each shows its curl line with a Copy button (catalogue.js; without script the
 * line is there to select).
 */
import { escapeHtml, pageHead } from '@retail/gateway-shared';
import { countsOf, curlOf, identifierOf, type CatalogueEntry, type DemoCatalogue } from './model.js';
import { DEMO_ASSETS_PATH, DEMO_CATALOGUE_JSON_PATH } from './paths.js';

export { escapeHtml };

function entryItem(entry: CatalogueEntry, base: string, status?: number): string {
  const badge = status === undefined ? '' : ` <span class="status">→ ${status}</span>`;
  const from = entry.source === 'project fixture' ? 'project fixture' : 'recorded page';
  return `<li><div class="entry-head"><span><code>${escapeHtml(identifierOf(entry))}</code>${badge} <span class="note">(${from})</span></span>
<button type="button" class="copy" hidden>Copy curl</button></div>
<pre>${escapeHtml(curlOf(entry, base))}</pre></li>`;
}
function marketplaceSection(catalogue: DemoCatalogue, domain: string, base: string): string {
  const own = catalogue.entries.filter((e) => e.domain === domain);
  const operations = [...new Set(own.map((e) => e.path))];
  const groups = operations.map((path) => {
    const entries = own.filter((e) => e.path === path);
    return `<h3><code>GET ${escapeHtml(path)}</code> (${entries.length})</h3>\n<ul class="entries">\n${entries.map((e) => entryItem(e, base)).join('\n')}\n</ul>`;
  });
  const body = groups.length > 0 ? groups.join('\n') : '<p>Nothing is recorded for this marketplace.</p>';
  return `<section id="${domain}"><h2>${domain} <span class="note">(${own.length} requests)</span></h2>\n${body}\n</section>`;
}

/** The whole page; `base` is the origin the client used (links and curl lines point there). */
export function cataloguePage(catalogue: DemoCatalogue, base: string): string {
  const counts = countsOf(catalogue);
  const rows = catalogue.marketplaces
    .map((m) => `<tr><td><a href="#${m}">${m}</a></td><td>${Object.values(counts[m] ?? {}).reduce((a, b) => a + b, 0)}</td><td>${Object.keys(counts[m] ?? {}).length}</td></tr>`)
    .join('\n');
  const errors = catalogue.errors.length === 0 ? '' : `<h2 id="errors">Errors on purpose</h2>
<p>These recordings are blocked or missing pages: they show what an error looks like (no unit is charged).</p>
<ul class="entries">\n${catalogue.errors.map((e) => entryItem(e, base, e.status)).join('\n')}\n</ul>`;
  return `<!doctype html>
<html lang="en">
${pageHead('What the demo knows · Retail Data API', [`${DEMO_ASSETS_PATH}/theme.css`, `${DEMO_ASSETS_PATH}/catalogue.css`], [`${DEMO_ASSETS_PATH}/catalogue.js`])}
<body>
<header class="site-header"><p class="brand"><a href="/">Retail Data API</a><span>demo catalogue</span></p></header>
<main>
<h1>What the demo knows</h1>
<p class="lead">The demo answers from recorded marketplace pages (${catalogue.sources.map(escapeHtml).join('; ')}), never the live marketplace.
These are the ${catalogue.entries.length} requests it can answer; anything else answers 404 "no such product".
Every call needs the development key that <code>npm run demo</code> printed, sent as the <code>API-KEY</code> header:
set it once in your terminal, then copy any request below and paste it there.</p>
<pre>KEY=&lt;the development key printed by npm run demo&gt;</pre>
<p>The same list for programs: <a href="${escapeHtml(base + DEMO_CATALOGUE_JSON_PATH)}"><code>${DEMO_CATALOGUE_JSON_PATH}</code></a>.</p>
<nav class="marketplaces" aria-label="Marketplaces">${catalogue.marketplaces.map((m) => `<a href="#${m}">${m}</a>`).join('')}${errors ? '<a href="#errors">errors</a>' : ''}</nav>
<table><caption class="note">Requests per marketplace</caption><thead><tr><th>Marketplace</th><th>Requests</th><th>Operations</th></tr></thead><tbody>
${rows}
</tbody></table>
${catalogue.marketplaces.map((m) => marketplaceSection(catalogue, m, base)).join('\n')}
${errors}
</main></body></html>
`;
}
