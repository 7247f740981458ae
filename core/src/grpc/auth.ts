import { createHash, timingSafeEqual } from 'node:crypto';
import { type Metadata, ResponderBuilder, ServerInterceptingCall, type ServerInterceptor, ServerListenerBuilder } from '@grpc/grpc-js';
import { ErrorReason } from '@retail/contract';
import { CoreError } from '../errors.js';
import { coreErrorStatus } from './status.js';

/** Calls that need no token: Kubernetes probes and load balancers call health without one. */
const EXEMPT_PREFIX = '/grpc.health.v1.Health/';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** `authorization: Bearer <token>` compared in constant time (hashes make the lengths equal). */
export function createTokenCheck(token: string): (metadata: Metadata) => boolean {
  const expected = digest(token);
  return (metadata) => {
    const values = metadata.get('authorization');
    if (values.length !== 1 || typeof values[0] !== 'string') return false;
    const match = /^Bearer (\S+)$/i.exec(values[0].trim());
    return match !== null && timingSafeEqual(digest(match[1]!), expected);
  };
}

/**
 * A server interceptor that refuses every call but health without the service token, before the
 * request is read: UNAUTHENTICATED with reason UNAUTHENTICATED_SERVICE. One place for every
 * service on the server (RetailService and reflection).
 */
export function serviceTokenInterceptor(token: string): ServerInterceptor {
  const isValid = createTokenCheck(token);
  return (method, call) => {
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        if (method.path.startsWith(EXEMPT_PREFIX) || isValid(metadata)) {
          next(metadata);
          return;
        }
        call.sendStatus(coreErrorStatus(new CoreError(ErrorReason.UNAUTHENTICATED_SERVICE)));
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
