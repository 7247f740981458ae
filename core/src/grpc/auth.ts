import { ResponderBuilder, ServerInterceptingCall, type ServerInterceptor, ServerListenerBuilder } from '@grpc/grpc-js';
import { ErrorReason } from '@retail/contract';
import { TOKEN_EXEMPT_PREFIX, createTokenCheck } from '@retail/contract/service-token';
import { CoreError } from '../errors.js';
import { coreErrorStatus } from './status.js';

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
        if (method.path.startsWith(TOKEN_EXEMPT_PREFIX) || isValid(metadata)) {
          next(metadata);
          return;
        }
        call.sendStatus(coreErrorStatus(new CoreError(ErrorReason.UNAUTHENTICATED_SERVICE)));
      })
      .build();
    return new ServerInterceptingCall(call, new ResponderBuilder().withStart((next) => next(listener)).build());
  };
}
