/**
 * Who may call the WatchService: the gateways (and internal services), with the deployment's service
 * token in `authorization: Bearer <token>`, on behalf of the account in `x-retail-account` (set by
 * the gateway after it checked the client's key). The watcher may not import the core, so this is
 * the core's idea (core/src/grpc/auth.ts) with the contract's constant-time token check
 * (@retail/contract/service-token), in a server interceptor that refuses before the request is
 * read. Health stays open for probes.
 */
import { type Metadata, ResponderBuilder, ServerInterceptingCall, type ServerInterceptor, ServerListenerBuilder } from '@grpc/grpc-js';
import { TOKEN_EXEMPT_PREFIX, createTokenCheck } from '@retail/contract/service-token';
import { grpcStatusOf, unauthenticated } from './errors.js';

export const ACCOUNT_METADATA_KEY = 'x-retail-account';

/** Account ids are opaque to the watcher; this only keeps garbage and huge values out of the database. */
const ACCOUNT_ID = /^[A-Za-z0-9._:@-]{1,128}$/;

/** The calling account, or null when the metadata carries none (or more than one, or garbage). */
export function accountOf(metadata: Metadata): string | null {
  const values = metadata.get(ACCOUNT_METADATA_KEY);
  if (values.length !== 1 || typeof values[0] !== 'string') return null;
  return ACCOUNT_ID.test(values[0]) ? values[0] : null;
}

/**
 * Refuses every call but health without the service token, and every WatchService or JobService call without an
 * account: UNAUTHENTICATED with reason UNAUTHENTICATED_SERVICE and its ErrorDetail.
 */
export function serviceAuthInterceptor(token: string, accountScopedPrefixes: readonly string[]): ServerInterceptor {
  const isValid = createTokenCheck(token);
  return (method, call) => {
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        if (method.path.startsWith(TOKEN_EXEMPT_PREFIX)) return next(metadata);
        if (!isValid(metadata)) return call.sendStatus(grpcStatusOf(unauthenticated('service token missing or invalid')));
        if (accountScopedPrefixes.some((prefix) => method.path.startsWith(prefix)) && accountOf(metadata) === null) {
          return call.sendStatus(grpcStatusOf(unauthenticated(`${ACCOUNT_METADATA_KEY} metadata missing or malformed`)));
        }
        next(metadata);
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
