/**
 * The typed clients: RetailService (the core's 17 lookups) and WatchService (the watcher), generated
 * from the proto by protoc-gen-es (the descriptors of @retail/contract) and called over Connect's
 * gRPC transport, as the gateways call them. Every call carries the service token and a deadline;
 * every failure rejects with a RetailError.
 */
import type { DescService } from '@bufbuild/protobuf';
import { type Client, type Interceptor, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { RetailService, WatchService } from '@retail/contract';
import { baseUrlOf } from './address.js';
import { toRetailError } from './retail-error.js';

export interface RetailClientOptions {
  /** The server's gRPC address: `host:port` (plaintext) or an http(s):// origin. */
  readonly address: string;
  /** The deployment's SERVICE_TOKEN, sent as `authorization: Bearer <token>`. */
  readonly serviceToken: string;
  /** Deadline of a call that sets no `timeoutMs` of its own (default 10000 ms). */
  readonly deadlineMs?: number;
  /** Interceptors of your own (tracing, logging), run inside the token and error handling. */
  readonly interceptors?: readonly Interceptor[];
}

export interface WatchClientOptions extends RetailClientOptions {
  /** The account the watches belong to (sent as `x-retail-account`; the watcher trusts it only with the token). */
  readonly accountId: string;
}

export type RetailClient = Client<typeof RetailService>;
export type WatchClient = Client<typeof WatchService>;

/** Metadata key of the account a watch call acts for (the gateways set it the same way). */
export const ACCOUNT_METADATA_KEY = 'x-retail-account';

const DEFAULT_DEADLINE_MS = 10_000;

async function* rethrowAsRetailErrors<T>(messages: AsyncIterable<T>): AsyncIterable<T> {
  try {
    yield* messages;
  } catch (error) {
    throw toRetailError(error);
  }
}

type AnyCall = (...args: unknown[]) => unknown;

/**
 * The client with every rejection as a RetailError: a unary call's, and a server stream's that fails
 * midway. Done around the client, not in an interceptor, because Connect wraps whatever an
 * interceptor throws into a ConnectError of its own.
 */
function withRetailErrors<S extends DescService>(service: S, client: Client<S>): Client<S> {
  const calls = client as unknown as Record<string, AnyCall>;
  const wrapped: Record<string, AnyCall> = {};
  for (const method of service.methods) {
    const call = calls[method.localName]!;
    if (method.methodKind === 'unary') {
      wrapped[method.localName] = async (...args) => {
        try {
          return await call(...args);
        } catch (error) {
          throw toRetailError(error);
        }
      };
    } else if (method.methodKind === 'server_streaming') {
      wrapped[method.localName] = (...args) => rethrowAsRetailErrors(call(...args) as AsyncIterable<unknown>);
    } else {
      wrapped[method.localName] = call;
    }
  }
  return wrapped as unknown as Client<S>;
}

function headerInterceptor(headers: Readonly<Record<string, string>>): Interceptor {
  return (next) => (req) => {
    for (const [name, value] of Object.entries(headers)) req.header.set(name, value);
    return next(req);
  };
}

function clientFor<S extends DescService>(service: S, options: RetailClientOptions, headers: Record<string, string>): Client<S> {
  if (!options.serviceToken) throw new TypeError('serviceToken is required (the deployment\'s SERVICE_TOKEN)');
  const transport = createGrpcTransport({
    baseUrl: baseUrlOf(options.address),
    defaultTimeoutMs: options.deadlineMs ?? DEFAULT_DEADLINE_MS,
    interceptors: [headerInterceptor({ authorization: `Bearer ${options.serviceToken}`, ...headers }), ...(options.interceptors ?? [])],
  });
  return withRetailErrors(service, createClient(service, transport));
}

/** A client of retail.v1.RetailService, the core: `await client.getProduct({ asin, domain: Domain.DE })`. */
export function createRetailClient(options: RetailClientOptions): RetailClient {
  return clientFor(RetailService, options, {});
}

/** A client of retail.v1.WatchService, the watcher, acting for one account. */
export function createWatchClient(options: WatchClientOptions): WatchClient {
  if (!options.accountId) throw new TypeError('accountId is required: every watch belongs to an account');
  return clientFor(WatchService, options, { [ACCOUNT_METADATA_KEY]: options.accountId });
}
