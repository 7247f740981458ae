/**
 * The demo catalogue as one HTML page: no script, no external asset (the stylesheet is inline and
 * the Content-Security-Policy allows nothing else), readable on a 390-px wide phone (lists rather
 * than wide tables; curl lines wrap).
 */
import { createHash } from 'node:crypto';
import { countsOf, curlOf, identifierOf, type CatalogueEntry, type DemoCatalogue, urlOf } from './model.js';
import { DEMO_CATALOGUE_JSON_PATH } from './paths.js';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1b1b1b;background:#fff}
h1{font-size:1.6rem;margin:.2rem 0 .8rem}h2{font-size:1.3rem;margin:2rem 0 .5rem;border-bottom:1px solid #ccc}
h3{font-size:1.05rem;margin:1.2rem 0 .3rem}code,pre{font-family:ui-monospace,monospace;font-size:.85rem}
pre{background:#f4f4f4;padding:.5rem;margin:.2rem 0 .8rem;white-space:pre-wrap;overflow-wrap:anywhere}
ul.entries{list-style:none;padding:0;margin:0}ul.entries li{margin:0 0 .6rem}
a{color:#0b57d0;overflow-wrap:anywhere}nav a{display:inline-block;margin:0 .6rem .3rem 0}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}
.note{color:#555}`;

/** The Content-Security-Policy source that allows exactly the inline stylesheet above. */
export const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

function entryItem(entry: CatalogueEntry, base: string, status?: number): string {
  const url = urlOf(entry, base);
  const badge = status === undefined ? '' : ` → <strong>${status}</strong>`;
  const from = entry.source === 'project fixture' ? 'project fixture' : 'recorded page';
  return `<li><a href="${escapeHtml(url)}"><code>${escapeHtml(identifierOf(entry))}</code></a>${badge} <span class="note">(${from})</span>
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
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>What the demo knows</title><style>${STYLE}</style></head>
<body><main>
<h1>What the demo knows</h1>
<p>The demo answers from recorded marketplace pages (${catalogue.sources.map(escapeHtml).join('; ')}), never the live marketplace.
These are the ${catalogue.entries.length} requests it can answer; anything else answers 404 "no such product".
Every call needs the development key that <code>npm run demo</code> printed, sent as the <code>API-KEY</code> header:</p>
<pre>KEY=&lt;the development key printed by npm run demo&gt;</pre>
<p>The same list for programs: <a href="${escapeHtml(base + DEMO_CATALOGUE_JSON_PATH)}"><code>${DEMO_CATALOGUE_JSON_PATH}</code></a>.</p>
<nav aria-label="Marketplaces">${catalogue.marketplaces.map((m) => `<a href="#${m}">${m}</a>`).join('')}${errors ? '<a href="#errors">errors</a>' : ''}</nav>
<table><caption class="note">Requests per marketplace</caption><thead><tr><th>Marketplace</th><th>Requests</th><th>Operations</th></tr></thead><tbody>
${rows}
</tbody></table>
${catalogue.marketplaces.map((m) => marketplaceSection(catalogue, m, base)).join('\n')}
${errors}
</main></body></html>
`;
}
