/**
 * grpc.health.v1 (Check and Watch; exempt from the service token so probes need no secret) and
 * server reflection (grpcurl) for the WatchService, as the core serves them for RetailService
 * (core/src/grpc/health.ts, reflection.ts; the watcher may not import the core).
 */
import { createRequire } from 'node:module';
import type { DescFile } from '@bufbuild/protobuf';
import { toBinary } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import type { Server } from '@grpc/grpc-js';
import { ReflectionService } from '@grpc/reflection';
import { JobService, WatchService, file_retail_v1_jobs, file_retail_v1_watch } from '@retail/contract';
import { HealthImplementation } from 'grpc-health-check';

/** Services reported by grpc.health.v1: the whole server (''), the WatchService and the JobService. */
export const HEALTH_SERVICES = ['', WatchService.typeName, JobService.typeName] as const;

export interface HealthReporter {
  setServing(serving: boolean): void;
}

export function addHealth(server: Pick<Server, 'addService'>): HealthReporter {
  const health = new HealthImplementation(Object.fromEntries(HEALTH_SERVICES.map((name) => [name, 'SERVING'])));
  health.addToServer(server);
  return {
    setServing: (serving) => {
      for (const name of HEALTH_SERVICES) health.setStatus(name, serving ? 'SERVING' : 'NOT_SERVING');
    },
  };
}

/** A file and everything it imports, dependencies first, each once. */
function withDependencies(file: DescFile, seen = new Set<string>(), out: DescFile[] = []): DescFile[] {
  if (seen.has(file.name)) return out;
  seen.add(file.name);
  for (const dependency of file.dependencies) withDependencies(dependency, seen, out);
  out.push(file);
  return out;
}

/** health.proto's descriptors, read by grpc-health-check's own proto-loader from the file it ships. */
function healthFileDescriptors(): Buffer[] {
  const require = createRequire(import.meta.url);
  const fromHealth = createRequire(require.resolve('grpc-health-check'));
  const { protoPath } = fromHealth('grpc-health-check') as { protoPath: string };
  const protoLoader = fromHealth('@grpc/proto-loader') as typeof import('@grpc/proto-loader');
  const definition = protoLoader.loadSync(protoPath, { keepCase: true });
  const request = definition['grpc.health.v1.HealthCheckRequest'] as { fileDescriptorProtos?: Buffer[] } | undefined;
  if (!request?.fileDescriptorProtos?.length) throw new Error('grpc-health-check: health.proto descriptors not found');
  return request.fileDescriptorProtos;
}

export function addReflection(server: Pick<Server, 'addService'>): void {
  const descriptors = (file: DescFile) => withDependencies(file).map((f) => Buffer.from(toBinary(FileDescriptorProtoSchema, f.proto)));
  const packageDefinition = {
    [WatchService.typeName]: { fileDescriptorProtos: descriptors(file_retail_v1_watch) },
    [JobService.typeName]: { fileDescriptorProtos: descriptors(file_retail_v1_jobs) },
    'grpc.health.v1.Health': { fileDescriptorProtos: healthFileDescriptors() },
  };
  new ReflectionService(packageDefinition as unknown as ConstructorParameters<typeof ReflectionService>[0], {
    services: [WatchService.typeName, JobService.typeName, 'grpc.health.v1.Health'],
  }).addToServer(server);
}
