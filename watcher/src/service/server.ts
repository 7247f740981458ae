/**
 * The watcher's gRPC server: retail.v1.WatchService behind the service-token and account check, the
 * JobService, DataIncidentService, ArchivedPageService and ReparseService when given, grpc.health.v1
 * and reflection. `start()` binds (port 0 picks a free one); `stop()` reports NOT_SERVING, ends the open event streams (UNAVAILABLE: resume elsewhere from the last cursor),
 * waits up to `graceMs` for unary calls, then forces.
 */
import type { DescService } from '@bufbuild/protobuf';
import { Server, ServerCredentials, setLogger, type UntypedServiceImplementation } from '@grpc/grpc-js';
import { grpcLoggerWithoutBindFailure } from '@retail/contract/grpc-bind-log';
import { ArchivedPageService, DataIncidentService, JobService, ReparseService, WatchService } from '@retail/contract';
import { grpcServiceDefinition } from '@retail/contract/grpc-service-definition';
import { addReflection } from '@retail/contract/grpc-reflection';
import { stopGrpcServer } from '@retail/contract/grpc-server-stop';
import { serviceAuthInterceptor } from './auth.js';
import type { ServiceLog } from './deps.js';
import { grpcImplementation, SERVER_STOPPING } from './grpc-calls.js';
import { addHealth } from './health.js';
import { archivedPageImplementation } from './archived-page-service.js';
import { dataIncidentImplementation } from './data-incident-service.js';
import { reparseImplementation, type ReparseServiceDeps } from './reparse-service.js';
import type { WatchStore } from '../store/index.js';
import type { JobServiceHandlers } from './job-service.js';
import type { WatchServiceHandlers } from './watch-service.js';

/**
 * The largest request the server reads: a CreateJob of 100,000 items is a few MB (an ASIN item is
 * about 20 bytes; long URLs make it more); grpc-js's default of 4 MB would refuse it.
 */
export const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

export interface WatcherGrpcServerOptions {
  readonly host: string;
  /** 0: any free port (start() answers which). */
  readonly port: number;
  /** SERVICE_TOKEN: the same secret the gateways send to the core. */
  readonly serviceToken: string;
  readonly service: WatchServiceHandlers;
  /** retail.v1.JobService (bulk jobs), served beside the WatchService when given. */
  readonly jobs?: JobServiceHandlers;
  /** retail.v1.DataIncidentService (the kept data incidents, docs/data-health.md), served when given. */
  readonly incidents?: Pick<WatchStore, 'incidents'>;
  /** retail.v1.ArchivedPageService (the page archive, docs/page-archive.md), served when given. */
  readonly archive?: Pick<WatchStore, 'pages'>;
  /** retail.v1.ReparseService (re-parse jobs for the admin CLI, docs/page-archive.md), served when given. */
  readonly reparse?: ReparseServiceDeps;
  readonly log?: ServiceLog;
}

export interface WatcherGrpcServer {
  start(): Promise<{ port: number }>;
  stop(options?: { graceMs?: number }): Promise<void>;
}

export function createWatcherGrpcServer(options: WatcherGrpcServerOptions): WatcherGrpcServer {
  const server = new Server({
    interceptors: [serviceAuthInterceptor(options.serviceToken, [`/${WatchService.typeName}/`, `/${JobService.typeName}/`])],
    'grpc.enable_channelz': 0,
    'grpc.max_receive_message_length': MAX_REQUEST_BYTES,
  });
  const streams = new Set<AbortController>();
  const bind = { streams, ...(options.log && { log: options.log }) };
  // What this server serves, once: the services, their health entries and reflection follow it.
  const served: Array<readonly [DescService, UntypedServiceImplementation]> = [[WatchService, grpcImplementation(WatchService, options.service, bind)]];
  if (options.jobs) served.push([JobService, grpcImplementation(JobService, options.jobs, bind)]);
  if (options.incidents) served.push([DataIncidentService, dataIncidentImplementation(options.incidents, options.log)]);
  if (options.archive) served.push([ArchivedPageService, archivedPageImplementation(options.archive, options.log)]);
  if (options.reparse) served.push([ReparseService, reparseImplementation(options.reparse, options.log)]);
  for (const [service, implementation] of served) server.addService(grpcServiceDefinition(service), implementation);
  const health = addHealth(server, served.map(([service]) => service.typeName));
  addReflection(server, served.map(([service]) => service));
  let started = false;

  return {
    start: () => new Promise((resolve, reject) => {
      setLogger(grpcLoggerWithoutBindFailure); // a port clash is said once, by the entry point
      server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, port) => {
        if (error) return reject(error);
        started = true;
        options.log?.info({ host: options.host, port }, 'watch service listening');
        resolve({ port });
      });
    }),
    stop: async ({ graceMs = 10_000 } = {}) => {
      health.setServing(false);
      for (const stream of streams) stream.abort(SERVER_STOPPING);
      const onForced = () => options.log?.warn({ graceMs }, 'calls still running after the grace period; forcing shutdown');
      await stopGrpcServer(server, { started, graceMs, onForced });
    },
  };
}
