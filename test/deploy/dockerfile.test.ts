/**
 * The Dockerfile, read rather than built (no docker engine runs on the development machines): every
 * deployable has its target, runs as a non-root numeric user under tini, and copies only what it
 * needs: its own node_modules (production dependencies of its workspace) and the dist of its package
 * and its workspace dependencies, derived here from the package.json files.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../harness/helm.js';
import { copies, effective, execForm, parseDockerfile, stageByName, stageChain } from './dockerfile.js';
import {
  DEPLOYABLE_NAMES,
  DEPLOYABLES,
  RUNTIME_ASSETS,
  directWorkspaceDependencies,
  workspaceClosure,
  workspaceFolders,
} from './workspace.js';

const stages = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const dockerignore = readFileSync(join(REPO_ROOT, '.dockerignore'), 'utf8').split('\n');
const deployableFolders = DEPLOYABLE_NAMES.map((name) => workspaceFolders().get(DEPLOYABLES[name].packageName)!);

describe('Dockerfile', () => {
  it('has one target per deployable, each a runtime image with no HEALTHCHECK', () => {
    for (const name of DEPLOYABLE_NAMES) {
      const chain = stageChain(stages, name);
      expect(chain.length, `target ${name}`).toBeGreaterThan(0);
      const keywords = chain.flatMap((stage) => stage.instructions.map((i) => i.keyword));
      expect(keywords).not.toContain('HEALTHCHECK');
    }
  });

  it.each(DEPLOYABLE_NAMES)('%s runs as a numeric non-root user', (name) => {
    const user = effective(stages, name, 'USER');
    expect(user, `${name} has no USER`).toBeDefined();
    const [uid, gid] = user!.split(':');
    expect(uid).toMatch(/^\d+$/);
    expect(Number(uid)).toBeGreaterThan(0);
    if (gid !== undefined) expect(Number(gid)).toBeGreaterThan(0);
  });

  it.each(DEPLOYABLE_NAMES)('%s has tini as PID 1 and starts its own compiled main after the telemetry bootstrap', (name) => {
    const entrypoint = execForm(effective(stages, name, 'ENTRYPOINT'));
    expect(entrypoint?.[0]).toMatch(/(^|\/)tini$/);
    expect(entrypoint?.at(-1)).toBe('--');
    const folder = workspaceFolders().get(DEPLOYABLES[name].packageName)!;
    expect(execForm(effective(stages, name, 'CMD'))).toEqual(['node', '--import', '@retail/telemetry/register', `${folder}/dist/main.js`]);
    // The bootstrap it imports is a workspace dependency of the deployable, so its image carries it.
    expect(workspaceClosure(DEPLOYABLES[name].packageName)).toContain('telemetry');
    // tini is installed in an ancestor stage, not assumed to be in the base image.
    const installs = stageChain(stages, name).some((stage) =>
      stage.instructions.some((i) => i.keyword === 'RUN' && /apt-get install[^&]*\btini\b/.test(i.args)),
    );
    expect(installs).toBe(true);
  });

  it.each(DEPLOYABLE_NAMES)('%s exposes its port', (name) => {
    const exposed = stageChain(stages, name).flatMap((stage) =>
      stage.instructions.filter((i) => i.keyword === 'EXPOSE').map((i) => i.args),
    );
    expect(exposed).toEqual([String(DEPLOYABLES[name].port)]);
  });

  it.each(DEPLOYABLE_NAMES)('%s holds only its dependencies and the dist of its workspace closure', (name) => {
    const { packageName } = DEPLOYABLES[name];
    const needed = workspaceClosure(packageName);
    // What the image holds: the target's copies and those of the stages it builds on.
    const targetCopies = stageChain(stages, name).flatMap(copies);

    // Nothing from the build context: only from the deps and dist stages.
    expect(targetCopies.every((copy) => copy.from !== undefined)).toBe(true);

    // node_modules from a deps stage that installs this workspace's production dependencies only.
    const modules = targetCopies.filter((copy) => copy.destination === 'node_modules');
    expect(modules).toHaveLength(1);
    const depsStage = stageByName(stages, modules[0]!.from!)!;
    const install = depsStage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
    expect(install).toMatch(/npm ci\b/);
    expect(install).toContain('--omit=dev');
    expect(install.match(/--workspace=(\S+)/g)).toEqual([`--workspace=${packageName}`]);
    expect(modules[0]!.sources).toEqual(['/app/node_modules']);

    // Package folders from the dist stage: exactly the workspace closure, no other deployable.
    const packages = targetCopies.filter((copy) => copy.destination !== 'node_modules');
    const copied = packages.map((copy) => copy.destination);
    expect(new Set(copied)).toEqual(new Set(needed));
    expect(copied.filter((folder) => deployableFolders.includes(folder))).toEqual([
      workspaceFolders().get(packageName),
    ]);
    for (const copy of packages) {
      expect(copy.from).toBe('dist');
      expect(copy.sources).toEqual([`/app/${copy.destination}`]);
    }
  });

  it('the dist stage holds only package.json, dist and declared run-time files of each package, and the build compiles them in dependency order', () => {
    const dist = stageByName(stages, 'dist')!;
    const needed = new Set(DEPLOYABLE_NAMES.flatMap((name) => workspaceClosure(DEPLOYABLES[name].packageName)));
    const assets = Object.entries(RUNTIME_ASSETS).flatMap(([folder, files]) => files.map((file) => `/app/${folder}/${file}`));
    for (const copy of copies(dist)) {
      expect(copy.from).toBe('build');
      const [source] = copy.sources;
      if (!assets.includes(source!)) expect(source).toMatch(/^\/app\/.+\/(package\.json|dist)$/);
    }
    for (const folder of needed) {
      const sources = copies(dist).flatMap((copy) => copy.sources);
      expect(sources).toContain(`/app/${folder}/package.json`);
      expect(sources).toContain(`/app/${folder}/dist`);
      for (const file of RUNTIME_ASSETS[folder] ?? []) {
        expect(sources, `${folder}/${file} is read at run time`).toContain(`/app/${folder}/${file}`);
        expect(existsSync(join(REPO_ROOT, folder, file)), `${folder}/${file} exists`).toBe(true);
      }
    }

    const build = stageByName(stages, 'build')!;
    // The run-time files reach the build stage from the context, so the dist stage finds them there.
    const contextSources = copies(build).filter((copy) => copy.from === undefined).flatMap((copy) => copy.sources);
    for (const [folder, files] of Object.entries(RUNTIME_ASSETS)) {
      // Copied by itself or with a folder that holds it (`COPY gateways/ gateways/`).
      const copied = (path: string) => contextSources.some((source) => path === source || path.startsWith(source.endsWith('/') ? source : `${source}/`));
      for (const file of files) expect(copied(`${folder}/${file}`), `build copies ${folder}/${file}`).toBe(true);
    }
    const script = build.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
    expect(script).toContain('tsc -p "$pkg/tsconfig.build.json"');
    const loop = /for pkg in ([^;]+);/.exec(script)?.[1]?.trim().split(/\s+/) ?? [];
    for (const name of DEPLOYABLE_NAMES) {
      for (const folder of workspaceClosure(DEPLOYABLES[name].packageName)) {
        expect(loop, `${name} needs ${folder} built`).toContain(folder);
        for (const dependency of directWorkspaceDependencies(folder)) {
          expect(loop.indexOf(dependency), `${dependency} compiles before ${folder}`).toBeLessThan(loop.indexOf(folder));
        }
      }
    }
  });

  it('puts the API reference bundle (a dev dependency) beside the REST gateway’s page files, where it looks first', () => {
    const build = stageByName(stages, 'build')!;
    const script = build.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args).join('\n');
    const source = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';
    expect(script).toContain(`cp ${source} gateways/rest/dist/public/scalar-standalone.js`);
    expect(existsSync(join(REPO_ROOT, source)), 'npm ci installs it').toBe(true);
    expect(readFileSync(join(REPO_ROOT, 'gateways/rest/src/pages/assets.ts'), 'utf8')).toContain("join(publicDirectory, 'scalar-standalone.js')");
    // Not a production dependency: the rest image's npm ci --omit=dev leaves its ~250 packages out.
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'gateways/rest/package.json'), 'utf8')) as { dependencies: object; devDependencies: object };
    expect(Object.keys(manifest.dependencies)).not.toContain('@scalar/api-reference');
    expect(Object.keys(manifest.devDependencies)).toContain('@scalar/api-reference');
  });

  it('copies every workspace manifest before npm ci (a missing one fails the install against the lock file)', () => {
    const sources = copies(stageByName(stages, 'manifests')!).flatMap((copy) => copy.sources);
    for (const folder of workspaceFolders().values()) expect(sources, folder).toContain(`${folder}/package.json`);
  });

  it('sends no node_modules, dist or tests to the build context', () => {
    for (const pattern of ['**/node_modules', '**/dist', '.git', 'test']) {
      expect(dockerignore).toContain(pattern);
    }
  });
});
