/**
 * A client may half-close its side (send FIN) once its request is complete and still read the answer
 * (RFC 9112 §9.6; `curl` does not, but simple clients and some proxies do). Node's HTTP server reads
 * that FIN as an abort by default: it aborts the request and ends its own side, so an answer still
 * being computed (a core call, a tools/call) is never written and the client reads an empty close.
 * With `httpAllowHalfOpen` Node instead marks the pending answer the connection's last: written,
 * then the connection ends. A peer that is really gone still closes or resets the socket, which aborts
 * the request as before.
 */
import type { Server } from 'node:http';

/** Lets `server` answer requests whose client half-closed after sending them; returns it. */
export function answerHalfClosedRequests<S extends Server>(server: S): S {
  // Not in Node's typings, but a Server field since Node 0.x, read by its `socketOnEnd`.
  (server as S & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  return server;
}
