/**
 * A stand-in for grpcurl (not in Debian's or npm's registries) for the documented-examples test. It
 * works as grpcurl does: it learns the services from the server's reflection (with the -H headers,
 * which grpcurl sends to reflection and to the call alike), then makes the call with protobuf JSON in
 * and out. Covers what the docs use: `-plaintext`, `-H`, `-d`, `list`, `describe SYMBOL` and unary
 * `pkg.Service/Method`. It prints "docs-example-status grpc:<Code>" on stderr, as the curl stand-in
 * prints the HTTP status, and exits non-zero on a failed call as grpcurl does.
 */
import { createRequire } from 'node:module';
import { create, type DescMethodUnary, createFileRegistry, type FileRegistry, fromBinary, fromJson, type JsonValue, toJson } from '@bufbuild/protobuf';
import {
  type DescriptorProto, type FileDescriptorProto, FileDescriptorProtoSchema, FileDescriptorSetSchema, file_google_protobuf_any, file_google_protobuf_descriptor, file_google_protobuf_duration, file_google_protobuf_empty,
  file_google_protobuf_field_mask, file_google_protobuf_struct, file_google_protobuf_timestamp, file_google_protobuf_wrappers,
} from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const require = createRequire(import.meta.url);
type ReflectionStream = grpc.ClientDuplexStream<object, Record<string, unknown>>;
const definition = protoLoader.loadSync(require.resolve('@grpc/reflection/build/proto/grpc/reflection/v1/reflection.proto'), { keepCase: true, longs: String, enums: String, defaults: false, oneofs: true });
const { ServerReflection } = (grpc.loadPackageDefinition(definition) as unknown as {
  grpc: { reflection: { v1: { ServerReflection: new (address: string, credentials: grpc.ChannelCredentials) => grpc.Client & { ServerReflectionInfo(metadata: grpc.Metadata): ReflectionStream } } } };
}).grpc.reflection.v1;

function parseArgs(args: string[]) {
  const headers: [string, string][] = [];
  let data: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-plaintext') continue;
    if (arg === '-H') {
      const [name, ...value] = args[++i]!.split(':');
      headers.push([name!.trim().toLowerCase(), value.join(':').trim()]);
    } else if (arg === '-d') data = args[++i];
    else if (arg.startsWith('-')) throw new Error(`the grpcurl stand-in does not know ${arg}`);
    else rest.push(arg);
  }
  const [address, verb, symbol] = rest;
  if (!address || !verb) throw new Error('usage: grpcurl -plaintext [-H "k: v"] [-d JSON] ADDRESS (list | describe SYMBOL | pkg.Service/Method)');
  return { headers, data, address, verb, symbol };
}

function reflect(address: string, headers: [string, string][], request: object): Promise<Record<string, unknown>> {
  const client = new ServerReflection(address, grpc.credentials.createInsecure());
  const metadata = new grpc.Metadata();
  for (const [name, value] of headers) metadata.add(name, value);
  const stream = client.ServerReflectionInfo(metadata);
  return new Promise((resolve, reject) => {
    stream.on('data', (answer) => {
      stream.end();
      client.close();
      const error = answer.error_response as { error_code: number; error_message: string } | undefined;
      if (error) reject(new ConnectError(error.error_message, error.error_code));
      else resolve(answer);
    });
    stream.on('error', (error: grpc.ServiceError) => {
      client.close();
      reject(new ConnectError(error.details, error.code as number));
    });
    stream.write(request);
  });
}

type FilesAnswer = { file_descriptor_response: { file_descriptor_proto: Buffer[] } };

/** Well-known types grpcurl knows without asking, as it does. */
const WELL_KNOWN = new Map([file_google_protobuf_timestamp, file_google_protobuf_field_mask, file_google_protobuf_duration, file_google_protobuf_struct, file_google_protobuf_empty, file_google_protobuf_any, file_google_protobuf_wrappers, file_google_protobuf_descriptor].map((file) => [`${file.name}.proto`, file]));

/**
 * Type names as protoc resolves them: a descriptor built at run time (grpc-health-check's, through
 * proto-loader) names types relative to the scope they are used in (`ServingStatus` inside
 * `HealthCheckResponse`), which protobuf-es's registry does not resolve; grpcurl's library does, from
 * the innermost scope outwards.
 */
function qualifyTypeNames(file: FileDescriptorProto): FileDescriptorProto {
  const declared = new Set<string>();
  const collect = (scope: string, messages: DescriptorProto[], enums: { name: string }[]) => {
    for (const e of enums) declared.add(`${scope}.${e.name}`);
    for (const message of messages) {
      declared.add(`${scope}.${message.name}`);
      collect(`${scope}.${message.name}`, message.nestedType, message.enumType);
    }
  };
  const root = file.package ? `.${file.package}` : '';
  collect(root, file.messageType, file.enumType);
  const resolve = (scope: string, name: string): string => {
    if (!name || name.startsWith('.')) return name;
    for (let at = scope; ; at = at.slice(0, at.lastIndexOf('.'))) {
      if (declared.has(`${at}.${name}`)) return `${at}.${name}`;
      if (!at) return `.${name}`;
    }
  };
  const walk = (scope: string, messages: DescriptorProto[]) => {
    for (const message of messages) {
      const inner = `${scope}.${message.name}`;
      for (const field of message.field) field.typeName = resolve(inner, field.typeName);
      walk(inner, message.nestedType);
    }
  };
  walk(root, file.messageType);
  for (const service of file.service) for (const method of service.method) Object.assign(method, { inputType: resolve(root, method.inputType), outputType: resolve(root, method.outputType) });
  return file;
}

/** A registry of the file that declares `symbol` and every file it imports, asked for by name as grpcurl does when an answer leaves one out. */
async function registryFor(address: string, headers: [string, string][], symbol: string): Promise<FileRegistry> {
  const decode = (answer: Record<string, unknown>) => (answer as FilesAnswer).file_descriptor_response.file_descriptor_proto.map((bytes) => qualifyTypeNames(fromBinary(FileDescriptorProtoSchema, bytes)));
  const files = new Map(decode(await reflect(address, headers, { file_containing_symbol: symbol })).map((file) => [file.name, file]));
  const ordered: FileDescriptorProto[] = [];
  const placed = new Set<string>();
  // Depth first, so that every file comes after the files it imports (the registry reads a set in order).
  const place = async (name: string): Promise<void> => {
    if (placed.has(name)) return;
    placed.add(name);
    let file = files.get(name) ?? WELL_KNOWN.get(name)?.proto;
    if (!file) {
      for (const found of decode(await reflect(address, headers, { file_by_filename: name }))) files.set(found.name, found);
      file = files.get(name)!;
    }
    for (const dependency of file.dependency) await place(dependency);
    ordered.push(file);
  };
  for (const name of [...files.keys()]) await place(name);
  return createFileRegistry(create(FileDescriptorSetSchema, { file: ordered }));
}

async function run(): Promise<void> {
  const { headers, data, address, verb, symbol } = parseArgs(process.argv.slice(2));
  if (verb === 'list') {
    const answer = (await reflect(address, headers, { list_services: '' })) as { list_services_response: { service: { name: string }[] } };
    for (const { name } of answer.list_services_response.service) console.log(name);
    return;
  }
  const target = verb === 'describe' ? symbol! : verb.replace('/', '.');
  const registry = await registryFor(address, headers, verb === 'describe' ? target : verb.split('/')[0]!);
  if (verb === 'describe') {
    const described = registry.get(target);
    if (!described) throw new ConnectError(`symbol not found: ${target}`, Code.NotFound);
    console.log(`${described.typeName} is a ${described.kind}`);
    return;
  }
  const [serviceName, methodName] = verb.split('/');
  const method = registry.getService(serviceName!)?.methods.find((m) => m.name === methodName);
  if (!method) throw new ConnectError(`method not found: ${verb}`, Code.NotFound);
  if (method.methodKind !== 'unary') throw new Error(`the grpcurl stand-in calls unary methods only, not ${verb}`);
  const transport = createGrpcTransport({ baseUrl: `http://${address}` });
  const input = fromJson(method.input, (data ? JSON.parse(data) : {}) as JsonValue, { registry });
  const response = await transport.unary(method as DescMethodUnary, undefined, 30_000, new Headers(headers), input, undefined);
  console.log(JSON.stringify(toJson(method.output, response.message, { registry }), null, 2));
}

try {
  await run();
  process.stderr.write('docs-example-status grpc:OK\n');
} catch (error) {
  const failure = ConnectError.from(error);
  process.stderr.write(`ERROR:\n  Code: ${Code[failure.code]}\n  Message: ${failure.rawMessage}\ndocs-example-status grpc:${Code[failure.code]}\n`);
  process.exit(1);
}
