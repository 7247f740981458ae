/**
 * Generated secrets survive `helm upgrade`: the chart reads them back with `lookup`, which only a
 * server-side dry run performs. helm renders against a stand-in API server (fake-kube-api.ts):
 * first with nothing installed (a fresh install generates), then with the Secrets of that render
 * installed (an upgrade must render the very same values, and so not roll the pods).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findHelm } from '../harness/helm.js';
import { type FakeKubeApi, startFakeKubeApi } from './fake-kube-api.js';
import { type K8sObject, byKind, find, renderChart, validateObject, workload } from './render.js';

const lookup = findHelm();
const helm = 'helm' in lookup ? lookup.helm : '';

/** Every generated value: Secret name → key → value (base64, as stored). */
const GENERATED: Record<string, string> = {
  'retail-retail-data-watcher': 'WEBHOOK_SECRET_KEY',
  'retail-retail-data-postgresql': 'password',
  'retail-retail-data-service-token': 'service-token',
  'retail-retail-data-console': 'CONSOLE_SESSION_SECRET',
};

const generatedValues = (objects: K8sObject[]) =>
  Object.fromEntries(Object.entries(GENERATED).map(([name, key]) => [name, find(objects, 'Secret', name)?.data?.[key] as string | undefined]));

const suiteName = 'helm' in lookup ? 'generated secrets across helm upgrade' : `generated secrets across helm upgrade (SKIPPED: ${lookup.missing})`;

describe.skipIf(!('helm' in lookup))(suiteName, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'retail-upgrade-'));
  let api: FakeKubeApi;
  let serverRender: () => Promise<K8sObject[]>;

  beforeAll(async () => {
    api = await startFakeKubeApi(scratch, 'retail');
    serverRender = () =>
      renderChart(helm, { extraArgs: ['--dry-run=server', '--disable-openapi-validation', '--kubeconfig', api.kubeconfig] });
  });
  afterAll(async () => {
    await api?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('an upgrade keeps every generated secret (webhook key, database password, service token, session secret) and rolls no pod', async () => {
    const install = await serverRender();
    for (const object of install) validateObject(object);
    const installed = generatedValues(install);
    for (const [name, value] of Object.entries(installed)) expect(value, `${name} generated`).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(Buffer.from(installed['retail-retail-data-watcher']!, 'base64').toString(), 'base64')).toHaveLength(32);

    // Without the Secrets in the cluster, a render generates anew: what follows is not luck.
    expect(generatedValues(await serverRender())).not.toEqual(installed);

    api.install('retail', byKind(install, 'Secret'));
    const upgrade = await serverRender();
    expect(generatedValues(upgrade)).toEqual(installed);
    for (const deployment of byKind(install, 'Deployment')) {
      const component = deployment.metadata.labels['app.kubernetes.io/component'];
      const annotations = (objects: K8sObject[]) => workload(objects, component).spec.template.metadata.annotations;
      expect(annotations(upgrade)['checksum/secret'], `${component} keeps its pods`).toBe(annotations(install)['checksum/secret']);
    }
  });
});
