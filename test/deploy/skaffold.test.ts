/**
 * skaffold.yaml checked against the Dockerfile and the chart (no skaffold binary or docker engine
 * here): one artifact per deployable built from its Dockerfile target, every image value it sets
 * exists in the chart's values and points at that artifact, and the dev profile renders one
 * replica each, in-chart Redis, debug logs, with port-forwards to Services that exist.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHART_DIR, REPO_ROOT, findHelm } from '../harness/helm.js';
import { parseDockerfile, stageByName } from './dockerfile.js';
import { type K8sObject, byKind, find, renderChart, validateObject, workload } from './render.js';
import { DEPLOYABLE_NAMES, DEPLOYABLES } from './workspace.js';

const skaffold = parse(readFileSync(join(REPO_ROOT, 'skaffold.yaml'), 'utf8'));
const stages = parseDockerfile(readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8'));
const chartValues = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const release = skaffold.deploy?.helm?.releases?.[0];
const devProfile = (skaffold.profiles ?? []).find((profile: { name: string }) => profile.name === 'dev');

/** Skaffold's template variable name for an artifact: "/" and "-" become "_". */
const templateName = (image: string): string => image.replace(/[/-]/g, '_');

/** The value at a dotted path of the chart's values.yaml, or undefined when the path does not exist. */
function valueAt(path: string): unknown {
  let node: unknown = chartValues;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The values files a profile's JSON patches add to the release. */
function profileValuesFiles(profile: { patches?: { op: string; path: string; value: unknown }[] }): string[] {
  return (profile.patches ?? [])
    .filter((patch) => patch.path === '/deploy/helm/releases/0/valuesFiles')
    .flatMap((patch) => patch.value as string[]);
}

describe('skaffold.yaml', () => {
  it('pins a skaffold/v4beta apiVersion', () => {
    expect(skaffold.apiVersion).toMatch(/^skaffold\/v4beta\d+$/);
    expect(skaffold.kind).toBe('Config');
  });

  it('has one artifact per deployable, each built from its own Dockerfile target', () => {
    const artifacts: { image: string; context: string; docker: { dockerfile: string; target: string } }[] =
      skaffold.build.artifacts;
    expect(artifacts.map((artifact) => artifact.docker.target).sort()).toEqual([...DEPLOYABLE_NAMES].sort());
    for (const artifact of artifacts) {
      expect(artifact.context).toBe('.');
      expect(existsSync(join(REPO_ROOT, artifact.context, artifact.docker.dockerfile))).toBe(true);
      expect(stageByName(stages, artifact.docker.target), `Dockerfile target ${artifact.docker.target}`).toBeDefined();
      expect(artifact.image.endsWith(`/${artifact.docker.target}`)).toBe(true);
    }
    expect(new Set(artifacts.map((artifact) => artifact.image)).size).toBe(artifacts.length);
  });

  it('deploys the chart with each image value set from its artifact, and only values the chart has', () => {
    expect(existsSync(join(REPO_ROOT, release.chartPath, 'Chart.yaml'))).toBe(true);
    const templates: Record<string, string> = release.setValueTemplates;
    for (const artifact of skaffold.build.artifacts as { image: string; docker: { target: string } }[]) {
      const name = artifact.docker.target;
      const variable = templateName(artifact.image);
      expect(templates[`${name}.image.repository`]).toBe(`{{.IMAGE_REPO_${variable}}}`);
      expect(templates[`${name}.image.tag`]).toBe(`{{.IMAGE_TAG_${variable}}}`);
    }
    for (const path of [...Object.keys(templates), ...Object.keys(release.setValues ?? {})]) {
      expect(valueAt(path), `chart value ${path}`).toBeDefined();
    }
    // Every template variable names an artifact of this file.
    const images = new Set((skaffold.build.artifacts as { image: string }[]).map((artifact) => templateName(artifact.image)));
    for (const template of Object.values(templates)) {
      for (const [, variable] of template.matchAll(/\{\{\.IMAGE_(?:REPO|TAG)_(\w+)\}\}/g)) expect(images).toContain(variable);
    }
  });

  it('activates the dev profile on `skaffold dev` and every profile values file exists', () => {
    expect(devProfile.activation).toContainEqual({ command: 'dev' });
    for (const profile of skaffold.profiles) {
      const files = profileValuesFiles(profile);
      expect(files.length, profile.name).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(join(REPO_ROOT, file)), file).toBe(true);
    }
  });

  const lookup = findHelm();
  describe.skipIf(!('helm' in lookup))(
    'helm' in lookup ? 'dev profile rendered' : `dev profile rendered (SKIPPED: ${'missing' in lookup ? lookup.missing : ''})`,
    () => {
      let objects: K8sObject[] = [];
      beforeAll(async () => {
        const set = Object.entries(release.setValues ?? {}).map(([key, value]) => `${key}=${String(value)}`);
        // Stand-in image references where skaffold would put the built artifacts'.
        for (const name of DEPLOYABLE_NAMES) set.push(`${name}.image.repository=skaffold.local/${name}`, `${name}.image.tag=dev`);
        const valuesFiles = profileValuesFiles(devProfile).map((file) => join(REPO_ROOT, file));
        objects = await renderChart((lookup as { helm: string }).helm, { valuesFiles, set });
      });

      it('runs one replica each with in-chart Redis and PostgreSQL, debug logs and the artifacts as images', () => {
        for (const object of objects) validateObject(object);
        expect(byKind(objects, 'HorizontalPodAutoscaler')).toEqual([]);
        expect(byKind(objects, 'StatefulSet').map((set) => set.metadata.labels['app.kubernetes.io/component']).sort()).toEqual([
          'postgresql',
          'redis-cache',
          'redis-ledger',
        ]);
        for (const name of DEPLOYABLE_NAMES) {
          const deployment = workload(objects, name);
          expect(deployment.spec.replicas).toBe(1);
          expect(deployment.spec.template.spec.containers[0].image).toBe(`skaffold.local/${name}:dev`);
          // Only the core reads LOG_LEVEL so far (see docs/deploy.md).
          expect(find(objects, 'ConfigMap', deployment.metadata.name)!.data.LOG_LEVEL).toBe(name === 'core' ? 'debug' : undefined);
        }
      });

      it('port-forwards every deployable to a Service and port that exist, on distinct local ports', () => {
        const forwards: { resourceType: string; resourceName: string; port: number; localPort: number }[] =
          devProfile.portForward;
        expect(forwards.map((forward) => forward.resourceName).sort()).toEqual(
          DEPLOYABLE_NAMES.map((name) => workload(objects, name).metadata.name).sort(),
        );
        for (const forward of forwards) {
          expect(forward.resourceType).toBe('service');
          const service = find(objects, 'Service', forward.resourceName)!;
          const component = service.metadata.labels['app.kubernetes.io/component'] as keyof typeof DEPLOYABLES;
          expect(forward.port).toBe(service.spec.ports[0].port);
          expect(forward.port).toBe(DEPLOYABLES[component].port);
        }
        expect(new Set(forwards.map((forward) => forward.localPort)).size).toBe(forwards.length);
        // 8080 stays free for `npm start` on the same laptop.
        expect(forwards.map((forward) => forward.localPort)).not.toContain(8080);
      });
    },
  );
});
