/*
 * The dependency rules `npm run check` enforces (dependency-cruiser; docs/architecture.md tells the
 * why). Two kinds:
 *
 * - Package rules (docs/architecture.md): the contract package at the bottom, the core and the gateways as
 *   peers that never import each other, app/ the only package that imports both. Test files inside
 *   the packages obey them too; the cross-cutting suites (test/, bench/) may import every package.
 * - The core's spine: its layers bottom-up, each importing only its own layer and the ones below.
 *   Tests and test support are outside the layers (a test may reach any layer).
 *
 * No import cycles anywhere. Type-only imports count: a cycle of types is still a cycle to read.
 */

/** The core's layers, bottom-up: [name, what it holds, path patterns]. Every core/src file is in one. */
const CORE_LAYERS = [
  ['pages', 'page types and hosts, marketplaces, errors, tracing, the declared fields of each page kind', ['^core/src/pages/', '^core/src/marketplaces/', '^core/src/errors\\.ts$', '^core/src/telemetry/']],
  ['fetching', 'upstream client, resilience, page cache, outcome metrics, page archive hand-off', ['^core/src/upstream/', '^core/src/resilience/', '^core/src/cache/', '^core/src/outcomes/', '^core/src/archive/']],
  ['html', 'the HTML engine: loading, the page index, selectors, node reads', ['^core/src/parsers/common/']],
  ['parsers', 'one pure parser per page kind: (page, context) → record', ['^core/src/parsers/(?!common/)']],
  ['operation-parts', 'what handlers compose: parser registry and worker pool, estimators, request validation, field health', ['^core/src/workers/', '^core/src/estimators/', '^core/src/validation/', '^core/src/health/']],
  ['operations', 'one handler per RPC with its normalizer', ['^core/src/operations/']],
  // Top-level files but errors.ts: config, logging, page services, the server and entry points.
  ['server', 'gRPC server, config, logging, page services, entry points', ['^core/src/grpc/', '^core/src/(?!errors\\.ts$)[^/]+\\.ts$']],
];

const TESTS = ['\\.test\\.ts$', '^core/test/'];
const anyOf = (patterns) => patterns.join('|');

/** Layer i may not import any layer above it. */
const layerRules = CORE_LAYERS.slice(0, -1).map(([name], i) => ({
  name: `core-layer-${name}`,
  severity: 'error',
  comment: `core/src ${name} imports only its own layer and the ones below: ${CORE_LAYERS.slice(0, i + 1).map(([n]) => n).join(', ')}`,
  from: { path: anyOf(CORE_LAYERS[i][2]), pathNot: TESTS },
  to: { path: anyOf(CORE_LAYERS.slice(i + 1).flatMap(([, , paths]) => paths)) },
}));

/** The package rules: [name, why, from paths, to paths]. */
const PACKAGE_RULES = [
  ['core-not-gateways', 'The core never imports a gateway: both speak through @retail/contract.', '^core/', '^gateways/'],
  ['gateways-not-core', 'Gateways call the core over gRPC; they never import it.', '^gateways/', '^core/'],
  ['contract-at-the-bottom', '@retail/contract (proto/) imports no other workspace package.', '^proto/', '^(core|gateways|watcher|app|telemetry)/'],
  ['database-at-the-bottom', '@retail/database (database/) is the PostgreSQL seam under the watcher and the ledger record: it imports no other workspace package.', '^database/', '^(proto|telemetry|core|gateways|watcher|app|clients|cli)/'],
  ['gateways-without-pglite', 'The gateways reach PostgreSQL through @retail/database\'s pg subpaths, never its index or PGlite: their images do not carry the embedded engine.', '^gateways/', '^database/src/(index|pglite-database)\\.ts$|@electric-sql/pglite'],
  ['core-without-a-database', 'The core keeps no records: it never imports @retail/database.', '^core/', '^database/'],
  ['telemetry-at-the-bottom', '@retail/telemetry is imported by the parts, never the other way round.', '^telemetry/', '^(core|gateways|watcher|app)/'],
  ['only-tests-import-app', 'app/ is the top: no package imports it (the cross-cutting tests and benchmarks may).', '^(proto|telemetry|database|core|gateways|watcher)/', '^app/'],
  ['watcher-not-core', 'The watcher calls the core over gRPC, as a gateway does; it never imports it.', '^watcher/', '^core/'],
  ['watcher-above-the-libraries', 'The watcher uses the gateway libraries (metering, the core client), never a protocol adapter.', '^watcher/', '^gateways/(rest|graphql|mcp|console)/'],
  ['only-app-imports-watcher', 'The watcher is a deployable: only app/ (and the cross-cutting tests) import it.', '^(proto|telemetry|core|gateways)/', '^watcher/'],
  ['gateway-libraries-not-adapters', 'gateways/shared and gateways/metering sit below the protocol adapters and the console.', '^gateways/(shared|metering)/', '^gateways/(rest|graphql|mcp|console)/'],
  ['client-on-the-contract', 'The TypeScript client (clients/) imports only @retail/contract: an internal service installs it without server code.', '^clients/', '^(core|gateways|watcher|app|telemetry|cli|database)/'],
  ['cli-on-the-registry', 'The CLI calls the REST API; of our code it imports only the operation and batch registries (and the contract below them).', '^cli/', '^(core|watcher|app|telemetry|clients|database)/|^gateways/(?!shared/src/(batch-)?registry\\.ts$)'],
  ['nothing-imports-the-clients', 'The clients and the CLI are leaves: no package imports them (the cross-cutting tests may).', '^(proto|telemetry|database|core|gateways|watcher|app)/', '^(clients|cli)/'],
].map(([name, comment, from, to]) => ({ name, severity: 'error', comment, from: { path: from }, to: { path: to } }));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycles: every module reads on its own, below what uses it.',
      from: {},
      to: { circular: true },
    },
    ...PACKAGE_RULES,
    {
      name: 'core-file-in-a-layer',
      severity: 'error',
      comment: 'Every core/src file belongs to a layer of CORE_LAYERS (.dependency-cruiser.cjs): add new folders there.',
      from: { path: '^core/src/', pathNot: [...TESTS, ...CORE_LAYERS.flatMap(([, , paths]) => paths)] },
      to: {},
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // Workspace packages resolve to their TypeScript sources, as in the type check and the tests.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['source', 'import', 'require', 'node', 'default'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
    },
  },
};
