/**
 * `GET /docs/`: the project's documentation (the repository's docs/*.md) as HTML pages, so that the
 * landing page's "Documentation" link works on any deployment without a forge or a CDN. Markdown is
 * rendered by marked (GitHub-flavoured: tables, fenced code); the files are the project's own, read
 * from a fixed directory by a name that must look like `contract.md`, never by a path.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Router } from 'express';
import { Marked } from 'marked';
import { escapeHtml, pageHead } from '@retail/gateway-shared';

export const DOCS_PATH = '/docs';
const DOC_NAME = /^[a-z0-9][a-z0-9-]*\.md$/;

/** The repository's docs/ (four levels up from src/pages), else the copy an image keeps in dist/docs (see the Dockerfile). */
export function defaultDocsDirectory(): string | undefined {
  const candidates = ['../../../../docs/', '../docs/'].map((path) => fileURLToPath(new URL(path, import.meta.url)));
  return candidates.find((dir) => existsSync(join(dir, 'contract.md')));
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
${pageHead(`${title} · Retail Data API`, ['/api/docs/theme.css', '/api/docs/site.css'])}
<body class="page">
  <header class="site-header"><p class="brand"><a href="/">Retail Data API</a> <span><a href="${DOCS_PATH}/">Documentation</a></span></p></header>
  <main id="main" class="doc">
${body}
  </main>
</body>
</html>
`;
}

/** The first `# Heading` of a document, else its file name. */
function titleOf(markdown: string, name: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? name;
}

export function createDocsRoutes(directory: string): Router {
  const marked = new Marked({ gfm: true });
  const router = Router();
  const names = () => readdirSync(directory).filter((name) => DOC_NAME.test(name)).sort();

  router.get('/', (req, res) => {
    // `/docs` → `/docs/`, so the documents' relative links (`contract.md`) resolve under it.
    if (!req.originalUrl.split('?')[0]!.endsWith('/')) return res.redirect(308, `${DOCS_PATH}/`);
    const items = names().map((name) => {
      const title = titleOf(readFileSync(join(directory, name), 'utf8'), name);
      return `    <li><a href="${escapeHtml(name)}">${escapeHtml(title)}</a> <code>${escapeHtml(name)}</code></li>`;
    });
    res.type('html').set('Cache-Control', 'no-cache').send(page('Documentation', `    <h1>Documentation</h1>\n    <ul class="doc-index">\n${items.join('\n')}\n    </ul>`));
  });

  router.get('/:name', (req, res, next) => {
    const { name } = req.params;
    if (!DOC_NAME.test(name) || !names().includes(name)) return next();
    const markdown = readFileSync(join(directory, name), 'utf8');
    const html = marked.parse(markdown, { async: false });
    res.type('html').set('Cache-Control', 'no-cache').send(page(titleOf(markdown, name), html));
  });
  return router;
}
