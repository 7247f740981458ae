/**
 * A stand-in Kubernetes API server, just enough for `helm template --dry-run=server`: version and
 * discovery of the kinds the chart renders, and GET of Secrets it holds (what the chart's `lookup`
 * reads back on an upgrade); everything else is 404 (nothing installed). No cluster runs on the
 * development machines, and the point here is helm's own lookup, not a cluster's behaviour.
 */
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { K8sObject } from './render.js';

const resource = (name: string, kind: string) => ({ name, singularName: kind.toLowerCase(), namespaced: true, kind, verbs: ['get', 'list'] });

/** API group/version → its resources; "v1" is the core group. */
const DISCOVERY: Record<string, ReturnType<typeof resource>[]> = {
  v1: [resource('secrets', 'Secret'), resource('configmaps', 'ConfigMap'), resource('services', 'Service'), resource('serviceaccounts', 'ServiceAccount')],
  'apps/v1': [resource('deployments', 'Deployment'), resource('statefulsets', 'StatefulSet')],
  'autoscaling/v2': [resource('horizontalpodautoscalers', 'HorizontalPodAutoscaler')],
  'policy/v1': [resource('poddisruptionbudgets', 'PodDisruptionBudget')],
  'networking.k8s.io/v1': [resource('networkpolicies', 'NetworkPolicy'), resource('ingresses', 'Ingress')],
};

export interface FakeKubeApi {
  /** A kubeconfig file pointing at this server (pass as helm's --kubeconfig). */
  readonly kubeconfig: string;
  /** Stores Secrets as a release's install leaves them: with helm's ownership annotations. */
  install(release: string, secrets: K8sObject[]): void;
  close(): Promise<void>;
}

export async function startFakeKubeApi(dir: string, namespace: string): Promise<FakeKubeApi> {
  const secrets = new Map<string, K8sObject>();
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path === '/version') return send(res, 200, { major: '1', minor: '31', gitVersion: 'v1.31.0', platform: 'linux/amd64' });
    if (path === '/api') return send(res, 200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] });
    if (path === '/apis') {
      const groups = Object.keys(DISCOVERY)
        .filter((groupVersion) => groupVersion.includes('/'))
        .map((groupVersion) => {
          const [name, version] = groupVersion.split('/');
          return { name, versions: [{ groupVersion, version }], preferredVersion: { groupVersion, version } };
        });
      return send(res, 200, { kind: 'APIGroupList', apiVersion: 'v1', groups });
    }
    const groupVersion = path === '/api/v1' ? 'v1' : /^\/apis\/(.+)$/.exec(path)?.[1];
    if (groupVersion && DISCOVERY[groupVersion]) return send(res, 200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: DISCOVERY[groupVersion] });
    const secret = /^\/api\/v1\/namespaces\/([^/]+)\/secrets\/([^/]+)$/.exec(path);
    const found = secret && secrets.get(`${secret[1]}/${secret[2]}`);
    if (found) return send(res, 200, found);
    send(res, 404, { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'fake', cluster: { server: `http://127.0.0.1:${port}` } }],
      users: [{ name: 'fake', user: { token: 'fake' } }],
      contexts: [{ name: 'fake', context: { cluster: 'fake', user: 'fake', namespace } }],
      'current-context': 'fake',
    }),
    { mode: 0o600 },
  );
  return {
    kubeconfig,
    install: (release, installed) => {
      for (const object of installed) {
        const annotations = { ...object.metadata.annotations, 'meta.helm.sh/release-name': release, 'meta.helm.sh/release-namespace': namespace };
        secrets.set(`${namespace}/${object.metadata.name}`, { ...object, metadata: { ...object.metadata, namespace, annotations } });
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
