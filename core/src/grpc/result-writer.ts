import { once } from 'node:events';
import type { Message } from '@bufbuild/protobuf';
import type { ServerWritableStream } from '@grpc/grpc-js';

/**
 * Writes results in the order they are handed over, each after the previous one's back-pressure
 * cleared; nothing once the call is over (cancelled, or past its deadline: grpc-js has ended it).
 */
export function resultWriter(call: ServerWritableStream<unknown, Message>, signal: AbortSignal) {
  let chain = Promise.resolve();
  return {
    write(message: Message): void {
      chain = chain.then(async () => {
        if (signal.aborted || call.cancelled) return;
        if (!call.write(message)) await once(call, 'drain', { signal }).catch(() => undefined);
      });
    },
    drained: () => chain,
  };
}
