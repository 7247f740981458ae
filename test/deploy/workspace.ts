/**
 * Facts the deploy tests check the Dockerfile, the chart and skaffold.yaml against, derived from the
 * npm workspace manifests (package names, folders, @retail/* dependencies) rather than typed again.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../harness/helm.js';

/**
 * The six deployables: image/target name → workspace package, the port it serves and how it is
 * probed: grpc.health.v1 on its port, or GET /healthz and /readyz over HTTP on its port or, for a
 * gRPC server probed over HTTP (the watcher: a worker-only replica has no gRPC server), healthPort.
 */
export const DEPLOYABLES = {
  core: { packageName: '@retail/core', port: 50051, protocol: 'grpc', probes: 'grpc' },
  rest: { packageName: '@retail/rest', port: 8080, protocol: 'http', probes: 'http' },
  graphql: { packageName: '@retail/graphql', port: 8080, protocol: 'http', probes: 'http' },
  mcp: { packageName: '@retail/mcp', port: 8080, protocol: 'http', probes: 'http' },
  console: { packageName: '@retail/console', port: 8080, protocol: 'http', probes: 'http' },
  watcher: { packageName: '@retail/watcher', port: 50052, protocol: 'grpc', probes: 'http', healthPort: 8080 },
} as const;

/** The container ports a deployable's pod declares (without the optional metrics port): its own, and the probes' when apart. */
export function containerPorts(name: DeployableName): { name: string; containerPort: number; protocol: 'TCP' }[] {
  const deployable: { port: number; protocol: string; healthPort?: number } = DEPLOYABLES[name];
  const own = { name: deployable.protocol, containerPort: deployable.port, protocol: 'TCP' as const };
  return deployable.healthPort === undefined ? [own] : [own, { name: 'http', containerPort: deployable.healthPort, protocol: 'TCP' }];
}

/**
 * Files besides dist/ a package reads at run time, relative to its folder: the watcher and the ledger
 * record and the console's users apply their SQL migrations at start (each resolves them beside dist/).
 */
export const RUNTIME_ASSETS: Readonly<Record<string, readonly string[]>> = {
  watcher: ['migrations'],
  'gateways/metering': ['migrations'],
  'gateways/console': ['migrations'],
};

export type DeployableName = keyof typeof DEPLOYABLES;
export const DEPLOYABLE_NAMES = Object.keys(DEPLOYABLES) as DeployableName[];

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  workspaces?: string[];
}

function readManifest(folder: string): Manifest {
  return JSON.parse(readFileSync(join(REPO_ROOT, folder, 'package.json'), 'utf8')) as Manifest;
}

/** Workspace package name → its folder relative to the repository root. */
export function workspaceFolders(): Map<string, string> {
  const root = readManifest('.');
  return new Map((root.workspaces ?? []).map((folder) => [readManifest(folder).name, folder]));
}

/**
 * The folders a deployable needs at run time: its own and those of every workspace package it
 * depends on, transitively, in dependency order (dependencies first).
 */
export function workspaceClosure(packageName: string): string[] {
  const folders = workspaceFolders();
  const ordered: string[] = [];
  const visit = (name: string, path: string[]): void => {
    const folder = folders.get(name);
    if (folder === undefined || ordered.includes(folder)) return;
    if (path.includes(name)) throw new Error(`workspace cycle: ${[...path, name].join(' → ')}`);
    for (const dependency of Object.keys(readManifest(folder).dependencies ?? {})) {
      visit(dependency, [...path, name]);
    }
    ordered.push(folder);
  };
  visit(packageName, []);
  return ordered;
}

/** The folders of the workspace packages a package folder depends on directly. */
export function directWorkspaceDependencies(folder: string): string[] {
  const folders = workspaceFolders();
  return Object.keys(readManifest(folder).dependencies ?? {})
    .map((name) => folders.get(name))
    .filter((dependency): dependency is string => dependency !== undefined);
}
