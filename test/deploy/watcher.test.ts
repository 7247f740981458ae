/**
 * The watcher in charts/retail-data, rendered by the real helm: its database in each shape (in-chart
 * PostgreSQL, an external URL, an existing Secret) and the schema refusing none or both; its queue,
 * webhook key and values reaching its environment; the gateways' WATCHER_ADDRESS; and its egress,
 * judged by evaluating the rendered NetworkPolicy against sample destinations.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { BlockList, isIPv6 } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CHART_DIR, REPO_ROOT, findHelm, runHelm } from '../harness/helm.js';
import { valueEnvironment } from './environment.js';
import { type K8sObject, byKind, environmentOf, find, labelsMatch, renderChart, validateObject, workload } from './render.js';

const lookup = findHelm();
const helm = 'helm' in lookup ? lookup.helm : '';
const PRODUCTION_VALUES = join(REPO_ROOT, 'deploy/values-production.example.yaml');
const EXTERNAL_URL = 'postgresql://watcher:s3cret@db.example.com:5432/watcher';
const EXTERNAL = ['postgresql.enabled=false', `watcher.database.url=${EXTERNAL_URL}`];
const FROM_SECRET = ['postgresql.enabled=false', 'watcher.database.existingSecret=retail-watcher-database'];
/** Who calls the WatchService: the gateways and the console's Watches page. */
const WATCHER_CLIENTS = ['rest', 'graphql', 'mcp', 'console'];

/** Destinations the webhook egress must refuse unless private targets are allowed (the brief's ranges, IPv6 alike). */
const PRIVATE = ['10.1.2.3', '172.16.5.4', '172.31.255.254', '192.168.1.1', '169.254.169.254', '100.64.0.1', '127.0.0.1', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1', '64:ff9b::a00:1'];
const PUBLIC = ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'];

type Port = { port: number; protocol?: string };
type Peer = { ipBlock?: { cidr: string; except?: string[] }; podSelector?: { matchLabels: Record<string, string> } };
type EgressRule = { to?: Peer[]; ports?: Port[] };

function inBlock(address: string, cidr: string): boolean {
  const [network, prefix] = cidr.split('/');
  const type = isIPv6(network!) ? 'ipv6' : 'ipv4';
  if ((type === 'ipv6') !== isIPv6(address)) return false;
  const list = new BlockList();
  list.addSubnet(network!, Number(prefix), type);
  return list.check(address, type);
}

/** NetworkPolicy semantics for one destination outside the cluster's pods: some rule admits it by port and ipBlock. */
function egressAllows(policy: K8sObject, address: string, port: number, protocol = 'TCP'): boolean {
  return (policy.spec.egress as EgressRule[]).some((rule) => {
    const portMatches = !rule.ports || rule.ports.some((p) => p.port === port && (p.protocol ?? 'TCP') === protocol);
    const peerMatches =
      !rule.to ||
      rule.to.some(({ ipBlock }) => ipBlock !== undefined && inBlock(address, ipBlock.cidr) && !(ipBlock.except ?? []).some((c) => inBlock(address, c)));
    return portMatches && peerMatches;
  });
}

/** Egress rules whose peers select this component's pods, with their ports. */
function egressToPods(objects: K8sObject[], policy: K8sObject, component: string): Port[] {
  const labels = workload(objects, component).spec.template.metadata.labels;
  return (policy.spec.egress as EgressRule[])
    .filter((rule) => rule.to?.some((peer) => peer.podSelector && labelsMatch(peer.podSelector.matchLabels, labels)))
    .flatMap((rule) => rule.ports ?? []);
}

const watcherPolicy = (objects: K8sObject[]) => find(objects, 'NetworkPolicy', workload(objects, 'watcher').metadata.name)!;
const decode = (value: string) => Buffer.from(value, 'base64').toString();

const suiteName = 'helm' in lookup ? 'the watcher in charts/retail-data' : `the watcher in charts/retail-data (SKIPPED: ${lookup.missing})`;

describe.skipIf(!('helm' in lookup))(suiteName, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'retail-watcher-chart-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const renders: Record<'inChart' | 'external' | 'fromSecret' | 'production', K8sObject[]> = { inChart: [], external: [], fromSecret: [], production: [] };

  const render = async (options: Parameters<typeof renderChart>[1]) => {
    const objects = await renderChart(helm, options);
    for (const object of objects) validateObject(object);
    return objects;
  };

  beforeAll(async () => {
    [renders.inChart, renders.external, renders.fromSecret, renders.production] = await Promise.all([
      render({}),
      render({ set: EXTERNAL }),
      render({ set: FROM_SECRET }),
      render({ valuesFiles: [PRODUCTION_VALUES] }),
    ]);
  });

  it('in-chart PostgreSQL: a pinned official image on a PVC, ready by pg_isready; the watcher reaches it by URL and reads its generated password as PGPASSWORD', () => {
    const objects = renders.inChart;
    const postgres = workload(objects, 'postgresql');
    const pod = postgres.spec.template;
    const [container] = pod.spec.containers;
    expect(container.image).toMatch(/^docker\.io\/library\/postgres:\d+\.\d+-[a-z]+$/);
    expect(postgres.spec.volumeClaimTemplates[0].metadata.name).toBe('data');
    expect(container.volumeMounts).toContainEqual({ name: 'data', mountPath: '/var/lib/postgresql/data' });
    expect(container.readinessProbe.exec.command[0]).toBe('pg_isready');
    const service = find(objects, 'Service', postgres.spec.serviceName)!;
    expect(labelsMatch(service.spec.selector, pod.metadata.labels)).toBe(true);
    expect(service.spec.ports[0].port).toBe(5432);

    const env = environmentOf(objects, 'watcher');
    const url = new URL(env.secret.DATABASE_URL!);
    expect(url.protocol).toBe('postgresql:');
    expect(url.password, 'the password never sits in the URL').toBe('');
    expect(`${url.hostname}:${url.port}`).toBe(`${service.metadata.name}:5432`);
    const postgresEnv = Object.fromEntries(container.env.map((entry: { name: string; value?: string }) => [entry.name, entry]));
    expect(url.username).toBe(postgresEnv.POSTGRES_USER.value);
    expect(url.pathname).toBe(`/${postgresEnv.POSTGRES_DB.value}`);
    // The server's password and the watcher's are the same key of the same generated Secret.
    const ref = postgresEnv.POSTGRES_PASSWORD.valueFrom.secretKeyRef;
    expect(env.refs.PGPASSWORD).toBe(`secret:${ref.name}/${ref.key}`);
    expect(decode(find(objects, 'Secret', ref.name)!.data[ref.key])).toMatch(/^[A-Za-z0-9]{48}$/);
  });

  it('an external URL: kept in the watcher Secret, with no in-chart PostgreSQL and no PGPASSWORD', () => {
    const env = environmentOf(renders.external, 'watcher');
    expect(env.secret.DATABASE_URL).toBe(EXTERNAL_URL);
    expect(env.plain.DATABASE_URL).toBeUndefined();
    expect(env.all).not.toContain('PGPASSWORD');
    expect(renders.external.filter((object) => object.metadata.name.includes('postgresql'))).toEqual([]);
    expect(egressToPods(renders.inChart, watcherPolicy(renders.inChart), 'postgresql')).toEqual([{ port: 5432, protocol: 'TCP' }]);
    expect(watcherPolicy(renders.external).spec.egress.filter((rule: EgressRule) => rule.ports?.some((p) => p.port === 5432))).toEqual([]);
  });

  it('an existing Secret: DATABASE_URL comes from it, and nothing of a database is rendered', () => {
    const env = environmentOf(renders.fromSecret, 'watcher');
    expect(env.refs.DATABASE_URL).toBe('secret:retail-watcher-database/database-url');
    expect(env.secret.DATABASE_URL).toBeUndefined();
    expect(env.all).not.toContain('PGPASSWORD');
    expect(renders.fromSecret.filter((object) => object.metadata.name.includes('postgresql'))).toEqual([]);
  });

  it('values.schema.json refuses a watcher without a database, with two, and a malformed URL or key', async () => {
    await expect(renderChart(helm, { set: ['postgresql.enabled=false'] })).rejects.toThrow(/watcher\/database/);
    await expect(renderChart(helm, { set: [`watcher.database.url=${EXTERNAL_URL}`] })).rejects.toThrow(/watcher\/database\/url/);
    await expect(renderChart(helm, { set: ['watcher.database.existingSecret=db'] })).rejects.toThrow(/watcher\/database\/existingSecret/);
    await expect(renderChart(helm, { set: [...EXTERNAL, 'watcher.database.existingSecret=db'] })).rejects.toThrow(/watcher\/database/);
    await expect(renderChart(helm, { set: ['postgresql.enabled=false', 'watcher.database.url=mysql://db/watcher'] })).rejects.toThrow(/watcher\/database\/url/);
    await expect(renderChart(helm, { set: ['watcher.webhooks.secretKey.value=too-short'] })).rejects.toThrow(/secretKey\/value/);
    await expect(renderChart(helm, { set: ['watcher.webhooks.timeoutMs=50'] })).rejects.toThrow(/webhooks\/timeoutMs/);
    // Past a skipped schema, the templates refuse too, in a sentence.
    const noSchema = ['--skip-schema-validation'];
    await expect(renderChart(helm, { set: ['postgresql.enabled=false'], extraArgs: noSchema })).rejects.toThrow(/exactly one PostgreSQL/);
    await expect(renderChart(helm, { set: [`watcher.database.url=${EXTERNAL_URL}`], extraArgs: noSchema })).rejects.toThrow(/exactly one PostgreSQL/);
  });

  it('the gateways and the console reach the watcher at its Service with the shared token; the watcher reaches the core at its Service with it', () => {
    const objects = renders.inChart;
    const watcherService = find(objects, 'Service', workload(objects, 'watcher').metadata.name)!;
    expect(watcherService.spec.ports).toMatchObject([{ name: 'grpc', port: 50052, appProtocol: 'grpc' }]);
    const token = environmentOf(objects, 'core').refs.SERVICE_TOKEN;
    for (const client of WATCHER_CLIENTS) {
      const env = environmentOf(objects, client);
      expect(env.plain.WATCHER_ADDRESS, client).toBe(`${watcherService.metadata.name}:50052`);
      expect(env.refs.SERVICE_TOKEN, client).toBe(token);
    }
    const coreService = find(objects, 'Service', workload(objects, 'core').metadata.name)!;
    const env = environmentOf(objects, 'watcher');
    expect(env.plain.CORE_ADDRESS).toBe(`${coreService.metadata.name}:${coreService.spec.ports[0].port}`);
    expect(env.refs.SERVICE_TOKEN).toBe(environmentOf(objects, 'core').refs.SERVICE_TOKEN);
    expect(egressToPods(objects, watcherPolicy(objects), 'core')).toEqual([{ port: coreService.spec.ports[0].port, protocol: 'TCP' }]);
  });

  it('the watcher admits its clients (the console too) on the gRPC port only, and the clients\' egress lets them call it', () => {
    for (const objects of [renders.inChart, renders.production]) {
      const policy = watcherPolicy(objects);
      const service = find(objects, 'Service', workload(objects, 'watcher').metadata.name)!;
      const admittedPorts = (component: string) => {
        const labels = workload(objects, component).spec.template.metadata.labels;
        return (policy.spec.ingress as { from?: Peer[]; ports?: Port[] }[])
          .filter((rule) => rule.from?.some((peer) => peer.podSelector && !('namespaceSelector' in peer) && labelsMatch(peer.podSelector.matchLabels, labels)))
          .flatMap((rule) => rule.ports ?? []);
      };
      for (const client of WATCHER_CLIENTS) {
        expect(admittedPorts(client), client).toEqual([{ port: service.spec.ports[0].port, protocol: 'TCP' }]);
        // No policy of the chart limits a client's egress: only the watcher's own is closed.
        const clientPolicies = byKind(objects, 'NetworkPolicy').filter((p) => labelsMatch(p.spec.podSelector.matchLabels, workload(objects, client).spec.template.metadata.labels));
        expect(clientPolicies.flatMap((p) => p.spec.policyTypes), client).not.toContain('Egress');
      }
      expect(admittedPorts('core'), 'the core never calls the watcher').toEqual([]);
    }
  });

  it("probes: GET /healthz (liveness) and /readyz (readiness) on the watcher's HTTP port in every role, which the program binds as PORT, never on the gRPC port", async () => {
    const probed = (objects: K8sObject[]) => {
      const container = workload(objects, 'watcher').spec.template.spec.containers[0];
      const ports = Object.fromEntries(container.ports.map((port: { name: string; containerPort: number }) => [port.name, port.containerPort]));
      return { container, ports, env: environmentOf(objects, 'watcher').plain };
    };
    const byDefault = probed(renders.inChart);
    expect(byDefault.container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(byDefault.container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(byDefault.container.livenessProbe.grpc).toBeUndefined();
    expect(byDefault.ports).toEqual({ grpc: 50052, http: 8080 });
    expect(byDefault.env).toMatchObject({ GRPC_PORT: '50052', PORT: '8080' });

    const moved = probed(await render({ set: ['watcher.healthPort=9090'] }));
    expect(moved.ports).toEqual({ grpc: 50052, http: 9090 });
    expect(moved.env.PORT).toBe('9090');
    // The probes' port stays out of the Service: only the kubelet (node traffic, which a NetworkPolicy cannot block) calls it.
    const service = find(renders.inChart, 'Service', workload(renders.inChart, 'watcher').metadata.name)!;
    expect(service.spec.ports.map((port: { port: number }) => port.port)).toEqual([50052]);
    await expect(renderChart(helm, { set: ['watcher.healthPort=50052'] })).rejects.toThrow(/watcher\.healthPort must differ from watcher\.port/);
    await expect(renderChart(helm, { set: ['watcher.healthPort=0'] })).rejects.toThrow(/healthPort/);
  });

  it('queues and units on the ledger by default; on their own Redis when one is named; a Cluster ledger without one is refused', async () => {
    const env = environmentOf(renders.inChart, 'watcher');
    expect(env.refs.LEDGER_REDIS_URL).toBe(environmentOf(renders.inChart, 'rest').refs.LEDGER_REDIS_URL);
    expect(env.all).not.toContain('QUEUE_REDIS_URL');
    expect(egressToPods(renders.inChart, watcherPolicy(renders.inChart), 'redis-ledger')).toEqual([{ port: 6379, protocol: 'TCP' }]);

    const cluster = ['redis.mode=external', 'redis.external.cacheUrl=redis://cache.example:6379', 'redis.external.ledgerClusterNodes[0]=ledger-0.example:6379'];
    await expect(renderChart(helm, { set: cluster })).rejects.toThrow(/watcher\.queue\.redisUrl/);
    const [byUrl, bySecret] = await Promise.all([
      render({ set: [...cluster, 'watcher.queue.redisUrl=redis://queue.example:6379'] }),
      render({ set: [...cluster, 'watcher.queue.existingSecret=retail-watcher-queue'] }),
    ]);
    expect(environmentOf(byUrl, 'watcher').secret.QUEUE_REDIS_URL).toBe('redis://queue.example:6379');
    expect(environmentOf(byUrl, 'watcher').plain.LEDGER_REDIS_CLUSTER).toBe('ledger-0.example:6379');
    expect(environmentOf(bySecret, 'watcher').refs.QUEUE_REDIS_URL).toBe('secret:retail-watcher-queue/queue-redis-url');
  });

  it('the webhook key is base64 of 32 random bytes when generated, the given value, or an existing Secret never rendered', async () => {
    const generated = environmentOf(renders.inChart, 'watcher').secret.WEBHOOK_SECRET_KEY!;
    expect(Buffer.from(generated, 'base64')).toHaveLength(32);
    expect(Buffer.from(generated, 'base64').toString('base64')).toBe(generated);
    const again = environmentOf(await render({}), 'watcher').secret.WEBHOOK_SECRET_KEY;
    expect(again, 'random per fresh install (upgrades read the installed one back)').not.toBe(generated);

    const key = Buffer.alloc(32, 7).toString('base64');
    expect(environmentOf(await render({ set: [`watcher.webhooks.secretKey.value=${key}`] }), 'watcher').secret.WEBHOOK_SECRET_KEY).toBe(key);
    const env = environmentOf(renders.production, 'watcher');
    expect(env.refs.WEBHOOK_SECRET_KEY).toBe('secret:retail-watcher-webhooks/webhook-secret-key');
    expect(env.secret.WEBHOOK_SECRET_KEY).toBeUndefined();
  });

  it('every watcher value with an (env NAME) comment reaches the watcher under that name, secrets in its Secret', async () => {
    const samples: Record<string, unknown> = {
      GRPC_PORT: 50053,
      PORT: 8081,
      GRPC_HOST: '::',
      CORE_DEADLINE_MS: 15000,
      WATCHER_REFRESH_CONCURRENCY: 4,
      WATCHER_DELIVERY_CONCURRENCY: 32,
      SNAPSHOT_RETENTION_DAYS: 365,
      JOB_CONCURRENCY: 3,
      JOB_ITEM_CONCURRENCY: 6,
      JOB_CHUNK_SIZE: 100,
      JOB_RESULT_RETENTION_DAYS: 14,
      REPARSE_CONCURRENCY: 6,
      DATABASE_URL: EXTERNAL_URL,
      QUEUE_REDIS_URL: 'rediss://:pw@queue.example:6380',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
      WEBHOOK_TIMEOUT_MS: 5000,
      WEBHOOK_SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
      OPERATOR_WEBHOOK_URL: 'https://ops.example/retail-incidents',
      OPERATOR_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 5).toString('base64')}`,
    };
    const watcherValues = [...valueEnvironment()].filter(([path]) => path.startsWith('watcher.'));
    expect(watcherValues.map(([, name]) => name).filter((name) => !(name in samples)), 'add a sample').toEqual([]);
    const values: Record<string, unknown> = { postgresql: { enabled: false } };
    for (const [path, name] of watcherValues) {
      const keys = path.split('.');
      let node = values;
      for (const key of keys.slice(0, -1)) node = (node[key] ??= {}) as Record<string, unknown>;
      node[keys.at(-1)!] = samples[name];
    }
    const file = join(scratch, 'watcher-values.yaml');
    writeFileSync(file, stringify(values));
    const env = environmentOf(await render({ valuesFiles: [file] }), 'watcher');
    const secrets = ['DATABASE_URL', 'QUEUE_REDIS_URL', 'WEBHOOK_SECRET_KEY', 'OPERATOR_WEBHOOK_SECRET'];
    for (const [path, name] of watcherValues) {
      const inSecret = secrets.includes(name);
      expect((inSecret ? env.secret : env.plain)[name], `${path} → ${name}`).toBe(String(samples[name]));
      if (inSecret) expect(env.plain[name], `${name} never in the ConfigMap`).toBeUndefined();
    }
  });

  it('the billing export: its URL and settings in the watcher\'s ConfigMap, its secret from the operator\'s Secret; refused without either or the record', async () => {
    const base = ['metering.database.existingSecret=ledger-db', 'metering.billingExport.url=https://openmeter.example.com/api/v1/events'];
    const objects = await render({ set: [...base, 'metering.billingExport.existingSecret=billing', 'metering.billingExport.batchSize=250', 'metering.billingExport.authorizationKey=openmeter-token', 'metering.billingExport.start=now'] });
    const env = environmentOf(objects, 'watcher');
    expect(env.plain.BILLING_EXPORT_URL).toBe('https://openmeter.example.com/api/v1/events');
    expect(env.plain.BILLING_EXPORT_BATCH_SIZE).toBe('250');
    expect(env.plain.BILLING_EXPORT_START).toBe('now');
    expect(env.refs.BILLING_EXPORT_SECRET).toBe('secret:billing/billing-export-secret');
    expect(env.refs.BILLING_EXPORT_AUTHORIZATION).toBe('secret:billing/openmeter-token');
    expect(env.plain.BILLING_EXPORT_SECRET).toBeUndefined();
    // Only the watcher exports.
    expect(environmentOf(objects, 'rest').plain.BILLING_EXPORT_URL).toBeUndefined();
    expect(environmentOf(renders.inChart, 'watcher').plain.BILLING_EXPORT_URL).toBeUndefined();
    await expect(renderChart(helm, { set: base })).rejects.toThrow(/metering.billingExport.url needs metering.billingExport.existingSecret/);
    await expect(renderChart(helm, { set: ['metering.billingExport.url=https://billing.example.com/in', 'metering.billingExport.existingSecret=billing'] }))
      .rejects.toThrow(/needs the ledger's record/);
  });

  it('egress: DNS and public HTTPS for webhooks, never the private, loopback, link-local or CGNAT ranges', () => {
    const policy = watcherPolicy(renders.inChart);
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    for (const address of PUBLIC) expect(egressAllows(policy, address, 443), address).toBe(true);
    for (const address of PRIVATE) expect(egressAllows(policy, address, 443), address).toBe(false);
    expect(egressAllows(policy, '8.8.8.8', 80), 'plain HTTP').toBe(false);
    expect(egressAllows(policy, '93.184.216.34', 5432), 'any other port').toBe(false);
    expect(egressAllows(policy, '10.96.0.10', 53, 'UDP'), 'DNS').toBe(true);
    expect(environmentOf(renders.inChart, 'watcher').plain.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('false');
  });

  it('egress: allowPrivateTargets opens the private ranges on the webhook ports only, together with the watcher\'s own check', async () => {
    const objects = await render({ set: ['watcher.webhooks.allowPrivateTargets=true', 'watcher.webhooks.egressPorts={443,8443}'] });
    const policy = watcherPolicy(objects);
    for (const address of [...PRIVATE, ...PUBLIC]) {
      expect(egressAllows(policy, address, 443), address).toBe(true);
      expect(egressAllows(policy, address, 8443), address).toBe(true);
    }
    expect(egressAllows(policy, '10.1.2.3', 6379)).toBe(false);
    expect(environmentOf(objects, 'watcher').plain.WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe('true');
  });

  it("NOTES warn when the watcher's closed egress meets an external database or Redis without extraEgress", async () => {
    const notes = async (set: string[]) => (await runHelm(helm, ['install', 'retail', CHART_DIR, '--dry-run=client', ...set.flatMap((value) => ['--set', value])])).stdout;
    const warning = /WARNING: the watcher's egress is closed/;
    expect(await notes([])).not.toMatch(warning);
    expect(await notes(FROM_SECRET)).toMatch(warning);
    expect(await notes([...FROM_SECRET, 'watcher.networkPolicy.extraEgress[0].ports[0].port=5432'])).not.toMatch(warning);
    expect(await notes([...FROM_SECRET, 'networkPolicy.enabled=false'])).not.toMatch(warning);
  });

  it('production: autoscaled with a PDB, its database and key from existing Secrets, egress opened to the managed databases only', () => {
    const objects = renders.production;
    const deployment = workload(objects, 'watcher');
    expect(deployment.spec.replicas).toBeUndefined();
    const hpa = byKind(objects, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === deployment.metadata.name)!;
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(byKind(objects, 'PodDisruptionBudget').some((p) => labelsMatch(p.spec.selector.matchLabels, deployment.spec.template.metadata.labels))).toBe(true);
    expect(environmentOf(objects, 'watcher').refs.DATABASE_URL).toBe('secret:retail-watcher-database/database-url');
    const policy = watcherPolicy(objects);
    expect(egressAllows(policy, '10.20.1.5', 5432)).toBe(true);
    expect(egressAllows(policy, '10.20.1.5', 6380)).toBe(true);
    expect(egressAllows(policy, '10.20.1.5', 443)).toBe(false);
    expect(egressAllows(policy, '10.30.1.5', 5432)).toBe(false);
  });
});
