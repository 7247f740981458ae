/**
 * The other-language recipes of docs/clients.md, run as a user would follow them: the code blocks are
 * taken from the document itself, so a recipe that stops working fails here. TypeScript over REST
 * (openapi-typescript + openapi-fetch) against a real REST gateway; Python over gRPC (buf with local
 * plugins, grpcio) against a real core; Go generation when its plugins exist (they cannot be
 * installed on these machines: the test says so and skips).
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createRestGateway } from '@retail/rest';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type StartedCore } from '../harness/core.js';
import { REPO_ROOT } from '../harness/helm.js';
import { type Stack, startStack } from '../harness/stack.js';
import { type ReplayServer, createReplayServer } from '../replay/server.js';

const run = promisify(execFile);
const DOC = readFileSync(join(REPO_ROOT, 'docs/clients.md'), 'utf8');
const BUF = join(REPO_ROOT, 'node_modules/.bin/buf');

/** The fenced block of `language` in docs/clients.md that contains `marker`. */
function docBlock(language: string, marker: string): string {
  const block = [...DOC.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!).find((text) => text.includes(marker));
  if (!block) throw new Error(`docs/clients.md has no ${language} block with ${marker}`);
  return block;
}

/** The `text` block right after the block containing `marker`: the output the document promises. */
function promisedOutput(marker: string): string[] {
  const after = DOC.slice(DOC.indexOf(marker));
  return /```text\n([\s\S]*?)```/.exec(after)![1]!.trim().split('\n');
}

const which = (binary: string) => spawnSync('sh', ['-c', `command -v ${binary}`]).status === 0;

/** Scratch folders inside the repository, so generated TypeScript resolves the repository's node_modules. */
function scratch(prefix: string): string {
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  return mkdtempSync(join(REPO_ROOT, '.tmp', prefix));
}

describe('TypeScript over REST: openapi-typescript and openapi-fetch', () => {
  let stack: Stack;
  let dir: string;
  beforeAll(async () => {
    stack = await startStack({ mounts: [(app, deps) => void app.use(createRestGateway({ core: deps.core, metering: deps.metering }))] });
    dir = scratch('openapi-recipe-');
  });
  afterAll(async () => {
    await stack?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const options: ts.CompilerOptions = {
    strict: true, noEmit: true, skipLibCheck: true, types: ['node'],
    target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  let previous: ts.Program | undefined;

  /** Type errors of a program next to the generated types, under strict (each check reuses the last one's work). */
  function typeErrors(file: string): string[] {
    previous = ts.createProgram([file], options, undefined, previous);
    return ts.getPreEmitDiagnostics(previous, previous.getSourceFile(file)).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  }

  it('generates types from the served document, type-checks the documented program and runs it', async () => {
    expect(stack.coreKind).toBe('real');
    const command = /^npx openapi-typescript (\S+) -o (\S+)/m.exec(DOC)!;
    const url = command[1]!.replace('http://127.0.0.1:8080', stack.baseUrl);
    await run(process.execPath, [join(REPO_ROOT, 'node_modules/openapi-typescript/bin/cli.js'), url, '-o', join(dir, command[2]!)], { cwd: dir });
    const program = join(dir, 'product.ts');
    writeFileSync(program, docBlock('ts', 'createClient<paths>'));
    expect(typeErrors(program)).toEqual([]);

    // The types are the document's: a domain that is not a marketplace does not compile.
    const wrong = join(dir, 'wrong-domain.ts');
    writeFileSync(wrong, readFileSync(program, 'utf8').replace("domain: 'DE'", "domain: 'XX'"));
    expect(typeErrors(wrong).join('\n')).toMatch(/"XX"/);

    const { accountId } = await stack.metering.admin.createAccount({ units: 10 });
    const { key } = await stack.metering.admin.createKey(accountId, { label: 'openapi recipe' });
    const { stdout } = await run(process.execPath, ['--import', 'tsx', program, 'B0FXTDE001', 'B0MISSING1', 'bad'], {
      cwd: dir,
      env: { ...process.env, RETAIL_BASE_URL: stack.baseUrl, RETAIL_API_KEY: key },
    });
    expect(stdout.trim().split('\n')).toEqual(promisedOutput('createClient<paths>').map((line) => line.replace('1.226,00 €', '1.226,00\u00a0€')));
  });
});

/** A Python that can import grpc and protobuf: Debian's (python3-grpcio) or the first on PATH. */
function pythonWithGrpc(): string | undefined {
  return ['/usr/bin/python3', 'python3'].find((python) => spawnSync(python, ['-c', 'import grpc, google.protobuf']).status === 0);
}

const python = pythonWithGrpc();
const pythonMissing = [
  ...(which('protoc') ? [] : ['protoc (apt-get install protobuf-compiler)']),
  ...(which('grpc_python_plugin') ? [] : ['grpc_python_plugin (apt-get install protobuf-compiler-grpc)']),
  ...(python ? [] : ['a Python with grpcio and protobuf (apt-get install python3-grpcio python3-protobuf)']),
];
if (pythonMissing.length > 0) console.warn(`Python recipe skipped: missing ${pythonMissing.join(', ')}`);

describe.skipIf(pythonMissing.length > 0)('Python over gRPC: buf with local plugins, grpcio', () => {
  let replay: ReplayServer;
  let core: StartedCore;
  let dir: string;
  beforeAll(async () => {
    replay = await createReplayServer({ corpusDirs: [resolve(REPO_ROOT, 'test/fixtures/pages')], port: 0, host: '127.0.0.1' });
    core = await startCore({ marketplaceOrigin: replay.origin });
    dir = scratch('python-recipe-');
  });
  afterAll(async () => {
    await core?.stop();
    await replay?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('generates the stubs as documented and runs the documented program against the core', async () => {
    const generate = /^npx buf generate proto --template (clients\/python\/buf\.gen\.yaml) --output \S+$/m.exec(DOC)!;
    await run(BUF, ['generate', 'proto', '--template', generate[1]!, '--output', join(dir, 'gen')], { cwd: REPO_ROOT });
    for (const file of ['retail/v1/service_pb2.py', 'retail/v1/service_pb2_grpc.py', 'retail/v1/watch_pb2_grpc.py', 'google/rpc/status_pb2.py']) expect(existsSync(join(dir, 'gen', file)), file).toBe(true);
    writeFileSync(join(dir, 'get_product.py'), docBlock('python', 'RetailServiceStub'));
    const { stdout } = await run(python!, [join(dir, 'get_product.py'), 'B0FXTDE001', 'B0MISSING1', 'bad'], {
      env: { PATH: process.env.PATH ?? '', PYTHONPATH: join(dir, 'gen'), RETAIL_CORE_ADDRESS: core.address, SERVICE_TOKEN: core.token },
    });
    expect(stdout.trim().split('\n')).toEqual(promisedOutput('RetailServiceStub').map((line) => line.replace('1.226,00 €', '1.226,00\u00a0€')));
  });
});

const goMissing = ['protoc-gen-go', 'protoc-gen-go-grpc'].filter((plugin) => !which(plugin));
if (goMissing.length > 0) console.warn(`Go recipe skipped: ${goMissing.join(' and ')} not on PATH (go install …; these machines reach no Go module proxy)`);

describe.skipIf(goMissing.length > 0)('Go over gRPC: buf with local plugins', () => {
  it('generates the messages and the service stubs under the managed go_package', async () => {
    const dir = scratch('go-recipe-');
    try {
      await run(BUF, ['generate', 'proto', '--template', 'clients/go/buf.gen.yaml', '--output', dir], { cwd: REPO_ROOT });
      expect(readFileSync(join(dir, 'retail/v1/service_grpc.pb.go'), 'utf8')).toContain('func NewRetailServiceClient(');
      expect(readFileSync(join(dir, 'retail/v1/service.pb.go'), 'utf8')).toMatch(/^package retailv1$/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
