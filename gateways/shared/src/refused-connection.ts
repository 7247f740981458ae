/**
 * Where a connection stands when Node's HTTP parser refuses bytes on it, read from the two places
 * Node keeps it (neither is public API; both long-standing fields of Node's HTTP server, and
 * refused-connection.test.ts fails if they move): the socket's `parser.incoming`
 * (the last request the parser handed to the app) and `_httpMessage` (the response being written).
 * The parser fails either in the head of a request no route has seen, or in the body of a request
 * the app already holds (bad chunked framing after a good head), and the two need different answers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

type HttpSocket = Duplex & {
  readonly parser?: { readonly incoming?: IncomingMessage | null } | null;
  readonly _httpMessage?: (ServerResponse & { readonly _last?: boolean }) | null;
};

export type ConnectionState =
  /** An earlier response (pipelining) is still being written: nothing may be written before its end. */
  | { readonly kind: 'earlier-answer-in-flight'; readonly response: ServerResponse }
  /**
   * Nothing more may be written: the failed request (its body was malformed) has its answer, started
   * or sent, or the answer before it said `Connection: close`. `response` is that answer while attached.
   */
  | { readonly kind: 'answered'; readonly response: ServerResponse | null }
  /** The error is in the body of a request the app holds and has not answered: it waits for a body that never ends. */
  | { readonly kind: 'unanswered-request' }
  /** The error is in a request head: no route has it, the refusal is its only answer. */
  | { readonly kind: 'refused-head' };

export function connectionState(socket: Duplex): ConnectionState {
  const { parser, _httpMessage: response = null } = socket as HttpSocket;
  const request = parser?.incoming ?? null;
  const inBody = request !== null && !request.complete;
  if (response && (!inBody || response.req !== request)) {
    // The response of an earlier (pipelined) request: the connection's last one, or one to wait for.
    if (response._last === true) return { kind: 'answered', response };
    if (!response.writableFinished) return { kind: 'earlier-answer-in-flight', response };
  }
  if (!inBody) return { kind: 'refused-head' };
  // The failed request's response detaches from the socket once finished, so none attached means answered.
  if (response === null || (response.req === request && response.headersSent)) return { kind: 'answered', response };
  return { kind: 'unanswered-request' };
}
