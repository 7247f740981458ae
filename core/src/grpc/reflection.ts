import { createRequire } from 'node:module';
import type { DescFile } from '@bufbuild/protobuf';
import { toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { Server } from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import { file_retail_v1_service } from '@retail/contract';

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
  const healthEntry = require.resolve('grpc-health-check');
  const fromHealth = createRequire(healthEntry);
  const { protoPath } = fromHealth('grpc-health-check') as { protoPath: string };
  const protoLoader = fromHealth('@grpc/proto-loader') as typeof import('@grpc/proto-loader');
  const definition = protoLoader.loadSync(protoPath, { keepCase: true });
  // Message entries carry the serialized files (service entries are method maps).
  const request = definition['grpc.health.v1.HealthCheckRequest'] as { fileDescriptorProtos?: Buffer[] } | undefined;
  if (!request?.fileDescriptorProtos?.length) throw new Error('grpc-health-check: health.proto descriptors not found');
  return request.fileDescriptorProtos;
}

/**
 * Server reflection (grpcurl and friends) for retail.v1.RetailService and grpc.health.v1.Health.
 * @grpc/reflection reads only `fileDescriptorProtos` of the package definition's entries, so the
 * entries are built from the protoc-gen-es descriptors (serialized FileDescriptorProtos) directly.
 */
export function addReflection(server: Pick<Server, 'addService'>): void {
  const retailFiles = withDependencies(file_retail_v1_service).map((file) => Buffer.from(toBinary(FileDescriptorProtoSchema, file.proto)));
  const packageDefinition = {
    'retail.v1.RetailService': { fileDescriptorProtos: retailFiles },
    'grpc.health.v1.Health': { fileDescriptorProtos: healthFileDescriptors() },
  };
  new ReflectionService(packageDefinition as unknown as ConstructorParameters<typeof ReflectionService>[0], {
    services: ['retail.v1.RetailService', 'grpc.health.v1.Health'],
  }).addToServer(server);
}
