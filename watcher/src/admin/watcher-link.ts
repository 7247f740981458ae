/**
 * The admin CLI's line to a running watcher: with `--watcher host:port` or WATCHER_ADDRESS (and
 * SERVICE_TOKEN, which the watcher requires) the `reparse` and `pages` commands ask the watcher's
 * internal gRPC services (ReparseService, ArchivedPageService) instead of opening its database,
 * which under `npm start` (PGlite) only the running process may open. Calls go over the gateways'
 * grpc-js caller, with the service token; a watcher that does not answer is one line and its own
 * exit code, so a script tells "not running" from "refused".
 */
import { create, type DescMethod, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import { Metadata } from '@grpc/grpc-js';
import { GrpcCode, REQUEST_ID_METADATA_KEY } from '@retail/contract';
import { createGrpcCaller } from '@retail/gateway-shared/grpc-caller';
import { randomUUID } from 'node:crypto';

/** Exit codes of the admin commands, the same on the direct and the watcher path. */
export const EXIT = { ok: 0, failed: 1, usage: 2, refused: 3, unreachable: 4 } as const;

/** Each call's deadline: the watcher answers from its database, never after a job's end. */
const CALL_DEADLINE_MS = 10_000;

export interface WatcherTarget {
  readonly address: string;
  readonly serviceToken: string;
}

/** A failed call, as the commands read it: the gRPC code and the watcher's message. */
export class WatcherCallError extends Error {
  constructor(readonly code: number, message: string) {
    super(message);
  }
}

export class UsageError extends Error {}

/**
 * The watcher to ask, if any, and the arguments without `--watcher`: the flag wins over
 * WATCHER_ADDRESS. Without either, undefined (the direct path). With one but no SERVICE_TOKEN, a
 * usage error: the watcher would refuse every call.
 */
export function watcherTargetOf(argv: readonly string[], env: NodeJS.ProcessEnv): { argv: string[]; target?: WatcherTarget } {
  const rest: string[] = [];
  let flag: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--watcher') flag = argv[++i] ?? '';
    else if (arg.startsWith('--watcher=')) flag = arg.slice('--watcher='.length);
    else rest.push(arg);
  }
  const address = (flag ?? env.WATCHER_ADDRESS ?? '').trim();
  if (flag === undefined && !address) return { argv: rest };
  if (!/^[^\s/]+:\d{1,5}$/.test(address)) throw new UsageError(`--watcher (or WATCHER_ADDRESS) must be host:port, as npm start's banner prints it ("gRPC watcher"), got ${JSON.stringify(address)}`);
  const serviceToken = env.SERVICE_TOKEN?.trim();
  if (!serviceToken) throw new UsageError(`the watcher at ${address} needs SERVICE_TOKEN (npm start's banner prints it: "Service token")`);
  return { argv: rest, target: { address, serviceToken } };
}

export interface WatcherLink {
  call<M extends DescMethod & { methodKind: 'unary' }>(method: M, request: MessageInitShape<M['input']>): Promise<MessageShape<M['output']>>;
  /** The one line an operator reads when the watcher did not answer, or refused the token. */
  readonly address: string;
  close(): void;
}

export function openWatcherLink(target: WatcherTarget): WatcherLink {
  const caller = createGrpcCaller(target.address, { keepaliveMs: 30_000 });
  return {
    address: target.address,
    async call(method, request) {
      const metadata = new Metadata();
      metadata.set('authorization', `Bearer ${target.serviceToken}`);
      metadata.set(REQUEST_ID_METADATA_KEY, `admin-${randomUUID()}`);
      try {
        return (await caller.unary(method, create(method.input, request), { metadata, timeoutMs: CALL_DEADLINE_MS })) as never;
      } catch (error) {
        // The caller rejects with a ConnectError: its code, and the message without the "[code]" prefix.
        const failure = error as { code?: number; rawMessage?: string; message?: string };
        throw new WatcherCallError(failure.code ?? GrpcCode.UNKNOWN, failure.rawMessage ?? failure.message ?? String(error));
      }
    },
    close: () => caller.close(),
  };
}

/**
 * The failures every command answers alike, as a line and an exit code: the watcher not answering
 * (not running, wrong address) and the token refused. Undefined for the rest (the command's own).
 */
export function linkFailureOf(error: unknown, address: string): { line: string; code: number } | undefined {
  if (!(error instanceof WatcherCallError)) return undefined;
  if (error.code === GrpcCode.UNAVAILABLE || error.code === GrpcCode.DEADLINE_EXCEEDED) {
    // grpc-js's wording, without its preamble and its empty resolver note: "connect ECONNREFUSED 127.0.0.1:1".
    const why = error.message.replace(/\s*Resolution note:.*$/s, '').replace(/^No connection established\. Last error: (Error: )?/, '');
    return { line: `the watcher at ${address} does not answer (${why}): is npm start (or the watcher) running, and is this its "gRPC watcher" address?`, code: EXIT.unreachable };
  }
  if (error.code === GrpcCode.UNAUTHENTICATED) return { line: `the watcher at ${address} refused SERVICE_TOKEN: use the "Service token" its start printed`, code: EXIT.usage };
  if (error.code === GrpcCode.UNIMPLEMENTED) return { line: `the watcher at ${address} does not serve this (an older build, or not a watcher): ${error.message}`, code: EXIT.unreachable };
  return undefined;
}
