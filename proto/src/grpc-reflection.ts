/**
 * Server reflection (grpcurl and friends) for the retail.v1 services a server offers and for
 * grpc.health.v1.Health, shared by the core and the watcher (the watcher may not import the core).
 * @grpc/reflection reads only `fileDescriptorProtos` of the package definition's entries, so the
 * entries are built from the protoc-gen-es descriptors (serialized FileDescriptorProtos) directly.
 * Not exported from the package index: clients need no server code, and @grpc/reflection and
 * grpc-health-check are optional peers of the contract that only the servers install.
 */
import { createRequire } from 'node:module';
import { type DescFile, type DescService, toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { ReflectionService } from '@grpc/reflection';

const HEALTH_SERVICE = 'grpc.health.v1.Health';

/** A file and everything it imports, dependencies first, each once. */
function withDependencies(file: DescFile, seen = new Set<string>(), out: DescFile[] = []): DescFile[] {
  if (seen.has(file.name)) return out;
  seen.add(file.name);
  for (const dependency of file.dependencies) withDependencies(dependency, seen, out);
  out.push(file);
  return out;
}

/**
 * The health service's descriptors, read by proto-loader from the .proto that grpc-health-check
 * ships (proto-loader is that package's own dependency, so it is resolved from there).
 */
function healthFileDescriptors(): Buffer[] {
  const require = createRequire(import.meta.url);
  const fromHealth = createRequire(require.resolve('grpc-health-check'));
  const { protoPath } = fromHealth('grpc-health-check') as { protoPath: string };
  const protoLoader = fromHealth('@grpc/proto-loader') as typeof import('@grpc/proto-loader');
  const definition = protoLoader.loadSync(protoPath, { keepCase: true });
  // Message entries carry the serialized files (service entries are method maps).
  const request = definition['grpc.health.v1.HealthCheckRequest'] as { fileDescriptorProtos?: Buffer[] } | undefined;
  if (!request?.fileDescriptorProtos?.length) throw new Error('grpc-health-check: health.proto descriptors not found');
  return request.fileDescriptorProtos;
}

/** Adds reflection for `services` (each with its file and that file's imports) and for health. */
export function addReflection(server: Parameters<ReflectionService['addToServer']>[0], services: readonly DescService[]): void {
  const descriptors = (file: DescFile) => withDependencies(file).map((f) => Buffer.from(toBinary(FileDescriptorProtoSchema, f.proto)));
  const packageDefinition = {
    ...Object.fromEntries(services.map((service) => [service.typeName, { fileDescriptorProtos: descriptors(service.file) }])),
    [HEALTH_SERVICE]: { fileDescriptorProtos: healthFileDescriptors() },
  };
  new ReflectionService(packageDefinition as unknown as ConstructorParameters<typeof ReflectionService>[0], {
    services: [...services.map((service) => service.typeName), HEALTH_SERVICE],
  }).addToServer(server);
}
