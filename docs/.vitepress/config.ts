/**
 * The documentation site (VitePress) built from docs/*.md and served by the REST gateway at /docs/
 * (gateways/rest/src/pages/docs.ts). `npm run docs:build` writes it to docs/.vitepress/dist (ignored by
 * git); the root `prepare` script runs it on `npm ci`, and the Dockerfile runs it in its build stage.
 * Everything the pages load is bundled: the local search index (minisearch, built here), the Inter font
 * and the theme; nothing is fetched from another origin at run time.
 *
 * The pages stay flat in docs/ (tests, scripts and code comments name them as docs/<name>.md); the
 * sections are the sidebar's, declared once here.
 */
import { defineConfig, type DefaultTheme } from 'vitepress';

/** GitHub's heading anchor: lower case, punctuation dropped (hyphens and underscores kept), each blank a hyphen. */
function githubSlug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

const SECTIONS: DefaultTheme.SidebarItem[] = [
  {
    text: 'Guides',
    items: [
      { text: 'Quick start', link: '/quick-start' },
      { text: 'Authentication', link: '/authentication' },
      { text: 'REST', link: '/rest' },
      { text: 'GraphQL', link: '/graphql' },
      { text: 'MCP (AI agents)', link: '/mcp' },
      { text: 'gRPC', link: '/grpc' },
      { text: 'Watches and webhooks', link: '/watches' },
      { text: 'Bulk jobs', link: '/jobs' },
      { text: 'Errors and retries', link: '/errors-and-retries' },
      { text: 'Limits', link: '/limits' },
      { text: 'Clients and CLI', link: '/clients' },
      { text: 'Console', link: '/console' },
      { text: 'The demo', link: '/demo' },
    ],
  },
  {
    text: 'Reference',
    items: [
      { text: 'Operations', link: '/reference-operations' },
      { text: 'Fields and enums', link: '/reference-fields' },
      { text: 'Errors', link: '/reference-errors' },
      { text: 'Settings', link: '/reference-settings' },
      { text: 'Keys, units and plans', link: '/metering' },
    ],
  },
  {
    text: 'Operations',
    items: [
      { text: 'Deploy', link: '/deploy' },
      { text: 'Observability', link: '/observability' },
      { text: 'Data health and incidents', link: '/data-health' },
      { text: 'Upstream resilience', link: '/resilience' },
      { text: 'Runbooks', link: '/runbooks' },
    ],
  },
  {
    text: 'Engineering notes',
    collapsed: true,
    items: [
      { text: 'Architecture', link: '/architecture' },
      { text: 'The wire contract', link: '/contract' },
      { text: 'Adding an operation', link: '/adding-an-operation' },
      { text: 'Tests and benchmarks', link: '/engineering-tests' },
      { text: 'Gateways: REST, GraphQL, MCP', link: '/engineering-gateways' },
      { text: 'The watcher', link: '/engineering-watches' },
      { text: 'Parsers', link: '/parsers' },
      { text: 'More parsers', link: '/parsers-more' },
      { text: 'Parser accuracy', link: '/accuracy' },
      { text: 'Page archive', link: '/page-archive' },
      { text: 'Conformance suites', link: '/conformance' },
      { text: 'Estimates: stock and sales', link: '/estimates' },
    ],
  },
];

export default defineConfig({
  title: 'Retail Data API',
  description: 'Normalized retail marketplace product data over REST, GraphQL, MCP and gRPC.',
  base: '/docs/',
  lastUpdated: false,
  themeConfig: {
    nav: [
      { text: 'Guides', link: '/quick-start' },
      { text: 'Reference', link: '/reference-operations' },
      { text: 'Operations', link: '/deploy' },
      { text: 'Engineering notes', link: '/architecture' },
      { text: 'API reference', link: '../api/docs/', target: '_self' },
    ],
    sidebar: SECTIONS,
    // Local search: the index is built with the site and searched in the browser (no service, no network).
    search: { provider: 'local' },
    outline: { level: [2, 3] },
  },
  markdown: {
    // Heading anchors as GitHub makes them ("Operator's responsibilities" → operators-responsibilities), so
    // the pages' links to each other's sections work the same on the site and in the repository.
    anchor: { slugify: githubSlug },
    config(md) {
      // A page's text is Markdown, not a Vue template: `{{…}}` or `<name>` inside inline code stays text.
      const inline = md.renderer.rules.code_inline!;
      md.renderer.rules.code_inline = (...args) => inline(...args).replace(/^<code/, '<code v-pre');
      // Links out of docs/ (a package's README) work on a forge but are no page of the site: keep their text.
      const open = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
      const close = md.renderer.rules.link_close ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
      md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
        const href = tokens[idx]!.attrGet('href') ?? '';
        // The service's other pages (/api/docs/, the interactive API reference) are outside the site's base:
        // a plain link, which the site's router leaves to the browser (target _self).
        if (href.startsWith('/api/')) {
          tokens[idx]!.attrSet('target', '_self');
          return self.renderToken(tokens, idx, options);
        }
        if (!href.startsWith('../')) return open(tokens, idx, options, env, self);
        tokens[idx]!.meta = { ...tokens[idx]!.meta, outside: true };
        return `<span class="repository-path" title="${md.utils.escapeHtml(href.slice(3))} in the repository">`;
      };
      md.renderer.rules.link_close = (tokens, idx, options, env, self) => {
        const opening = tokens.slice(0, idx).reverse().find((token) => token.type === 'link_open' && token.level === tokens[idx]!.level);
        return opening?.meta?.outside ? '</span>' : close(tokens, idx, options, env, self);
      };
    },
  },
});
