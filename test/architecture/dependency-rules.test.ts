import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/*
 * The dependency rules of `npm run check` (.dependency-cruiser.cjs) catch what they are for: each
 * run of dependency-cruiser here is the one `check:deps` makes, on a tiny tree written for the
 * test (in a temporary folder, so the repository never holds a cycle), and on the repository.
 */

const root = fileURLToPath(new URL('../../', import.meta.url));
const depcruise = join(root, 'node_modules/.bin/depcruise');
const config = join(root, '.dependency-cruiser.cjs');
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** Writes `files` (path → source) into a fresh folder laid out like the repository. */
function tree(files: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'dependency-rules-'));
  folders.push(folder);
  const all = { 'tsconfig.json': '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext" } }', ...files };
  for (const [path, source] of Object.entries(all)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), source);
  }
  return folder;
}

function cruise(cwd: string, paths: readonly string[]): { status: number | null; output: string } {
  const run = spawnSync(depcruise, [...paths, '--config', config, '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A core that follows the spine, and a gateway that imports only the contract. */
const GOOD = {
  'proto/src/index.ts': 'export const contract = 1;\n',
  'core/src/pages/types.ts': 'export type PageKind = "product";\n',
  'core/src/cache/page-cache.ts': 'import type { PageKind } from "../pages/types.js";\nexport const ttl = (kind: PageKind) => kind.length;\n',
  'core/src/parsers/common/page.ts': 'export const load = (html: string) => html;\n',
  'core/src/parsers/product.ts': 'import { load } from "./common/page.js";\nexport const parse = (html: string) => load(html);\n',
  'core/src/operations/product.ts': 'import { ttl } from "../cache/page-cache.js";\nimport { parse } from "../parsers/product.js";\nexport const handle = () => parse("") + ttl("product");\n',
  'core/src/operations/product.test.ts': 'import { handle } from "./product.js";\nimport { server } from "../server.js";\nexport const t = [handle, server];\n',
  'core/src/server.ts': 'import { handle } from "./operations/product.js";\nimport { contract } from "../../proto/src/index.js";\nexport const server = [handle, contract];\n',
  'gateways/rest/src/index.ts': 'import { contract } from "../../../proto/src/index.js";\nexport const rest = contract;\n',
};

describe('dependency rules (npm run check:deps)', () => {
  it('pass on a tree that follows them (a test may reach any layer)', () => {
    const result = cruise(tree(GOOD), ['proto', 'core', 'gateways']);
    expect(result.output).toContain('no dependency violations found');
    expect(result.status).toBe(0);
  });

  it('fail on a cycle, an upward import, a file outside the layers and a package crossing', () => {
    const bad = {
      ...GOOD,
      // A cycle inside a layer.
      'core/src/operations/a.ts': 'import { b } from "./b.js";\nexport const a = () => b;\n',
      'core/src/operations/b.ts': 'import { a } from "./a.js";\nexport const b = () => a;\n',
      // The fetching layer reaching up to the parsers.
      'core/src/cache/page-cache.ts': 'import { parse } from "../parsers/product.js";\nexport const ttl = () => parse("").length;\n',
      // A folder no layer names.
      'core/src/stray/x.ts': 'import type { PageKind } from "../pages/types.js";\nexport type X = PageKind;\n',
      // A gateway importing the core, and a core test importing a gateway (package rules hold for tests).
      'gateways/rest/src/index.ts': 'import { server } from "../../../core/src/server.js";\nexport const rest = server;\n',
      'core/src/server.test.ts': 'import { rest } from "../../gateways/rest/src/index.js";\nexport const t = rest;\n',
    };
    const result = cruise(tree(bad), ['proto', 'core', 'gateways']);
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/no-circular: core\/src\/operations\/(a|b)\.ts/);
    expect(result.output).toContain('core-layer-fetching: core/src/cache/page-cache.ts → core/src/parsers/product.ts');
    expect(result.output).toContain('core-file-in-a-layer: core/src/stray/x.ts');
    expect(result.output).toContain('gateways-not-core: gateways/rest/src/index.ts → core/src/server.ts');
    expect(result.output).toContain('core-not-gateways: core/src/server.test.ts → gateways/rest/src/index.ts');
  });

  it('pass on the repository', { timeout: 120_000 }, () => {
    const result = cruise(root, ['proto', 'telemetry', 'core', 'gateways', 'app', 'test', 'bench']);
    expect(result.output).toContain('no dependency violations found');
    expect(result.status).toBe(0);
  });
});
