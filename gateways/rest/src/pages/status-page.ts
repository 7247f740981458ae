/**
 * The status page at `/status` (docs/data-health.md): for a person, what `GET /api/status` says (how
 * well the service reads each marketplace, page kind by page kind) and the incident changes of the
 * last 30 days, which the watcher keeps. Public, like the status document. Without a watcher
 * (WATCHER_ADDRESS unset) the page says the history is not available rather than pretending none.
 */
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { DataHealthService, DataIncidentService, dataIncidentStateName, type DataIncidentTransition } from '@retail/contract';
import { type CoreClient, escapeHtml, pageHead, requestIdFrom } from '@retail/gateway-shared';
import type { RequestHandler } from 'express';
import { retailStatus, type KindStatus } from '../status-route.js';

export const STATUS_PAGE_PATH = '/status';

const stateCell = (state: string) => `<td class="state state-${escapeHtml(state)}">${escapeHtml(state)}</td>`;
const fieldList = (fields: readonly string[]) => (fields.length > 0 ? fields.map((f) => `<code>${escapeHtml(f)}</code>`).join(' ') : '—');

function currentTable(marketplaces: readonly { domain: string; kinds: KindStatus[] }[]): string {
  if (marketplaces.length === 0) return '<p>No page has been read yet since the service started: nothing to report.</p>';
  const rows = marketplaces.flatMap(({ domain, kinds }) =>
    kinds.map((k) => `      <tr><td>${escapeHtml(domain)}</td><td>${escapeHtml(k.kind)}</td>${stateCell(k.state)}<td>${k.since ? escapeHtml(k.since) : '—'}</td><td>${fieldList(k.fields)}</td></tr>`));
  return `<table class="status">
      <thead><tr><th>Marketplace</th><th>Kind</th><th>State</th><th>Since</th><th>Affected fields</th></tr></thead>
      <tbody>
${rows.join('\n')}
      </tbody>
    </table>`;
}

function historyTable(changes: readonly DataIncidentTransition[] | undefined): string {
  if (changes === undefined) return '<p>The incident history is kept by the watcher, which this deployment does not reach.</p>';
  if (changes.length === 0) return '<p>No incident in the last 30 days.</p>';
  const rows = changes.map((c) => {
    const at = c.at ? timestampDate(c.at).toISOString() : '';
    const from = dataIncidentStateName(c.from) ?? '';
    const to = dataIncidentStateName(c.to) ?? '';
    return `      <tr><td>${escapeHtml(at)}</td><td>${escapeHtml(c.marketplace)}</td><td>${escapeHtml(c.kind)}</td><td>${escapeHtml(from)} → ${escapeHtml(to)}</td><td>${fieldList(c.fields)}</td></tr>`;
  });
  return `<table class="history">
      <thead><tr><th>When</th><th>Marketplace</th><th>Kind</th><th>Change</th><th>Affected fields</th></tr></thead>
      <tbody>
${rows.join('\n')}
      </tbody>
    </table>`;
}

export function renderStatusPage(marketplaces: readonly { domain: string; kinds: KindStatus[] }[], changes: readonly DataIncidentTransition[] | undefined): string {
  const open = marketplaces.flatMap((m) => m.kinds).filter((k) => k.state !== 'healthy').length;
  return `<!doctype html>
<html lang="en">
${pageHead('Data status · Retail Data API', ['/api/docs/theme.css', '/api/docs/site.css'])}
<body class="page">
  <header class="site-header"><p class="brand"><a href="/">Retail Data API</a></p></header>
  <main id="main">
    <h1>Data status</h1>
    <p class="lead">${open === 0 ? 'Every marketplace and page kind read so far is healthy.' : `${open} page kind(s) under a data incident: answers from them carry <code>X-Data-Incident</code>.`}
    The same as <a href="/api/status"><code>GET /api/status</code></a>; what the states mean: <a href="/docs/data-health.md">Data health</a>.</p>
    <h2>Now</h2>
    ${currentTable(marketplaces)}
    <h2>Last 30 days</h2>
    ${historyTable(changes)}
  </main>
</body>
</html>
`;
}

export function statusPage(core: Pick<CoreClient, 'unaryCall'>): RequestHandler {
  return async (req, res) => {
    const requestId = requestIdFrom(req.headers);
    res.set('X-Request-Id', requestId);
    try {
      const [status, history] = await Promise.all([
        core.unaryCall(DataHealthService.method.getDataStatus, {}, { requestId }),
        core.unaryCall(DataIncidentService.method.listDataIncidentChanges, {}, { requestId }).then((r) => r.changes, () => undefined),
      ]);
      res.type('html').set('Cache-Control', 'no-cache').send(renderStatusPage(retailStatus(status).marketplaces, history));
    } catch {
      res.status(503).set('Retry-After', '5').type('html').send(renderStatusPage([], undefined).replace('<h2>Now</h2>', '<h2>Now</h2>\n    <p>The core does not answer: the status is unavailable. Try again in a few seconds.</p>'));
    }
  };
}
