/**
 * Protocol-level refusals in the error envelope. Node's HTTP parser refuses some requests before any
 * route sees them (a request head over the size limit, a malformed request line or header, a request
 * that took too long to arrive) and, left alone, answers them with a bare status and no body. Every
 * HTTP server of the project installs this one `clientError` listener so those answers carry the
 * envelope too; they never reach the pipeline, so nothing is metered or charged.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorEnvelope } from '@retail/contract';
import { connectionState } from './refused-connection.js';

/** Status and message per parser error code; any other code is a malformed request (400). */
const REFUSALS: Readonly<Record<string, { readonly status: number; readonly message: string }>> = {
  HPE_HEADER_OVERFLOW: { status: 431, message: 'request headers too large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, message: 'request too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'request timeout' },
};
const MALFORMED = { status: 400, message: 'malformed request' } as const;

/**
 * How long a refused connection may stay half-open after the answer: the server sockets allow half
 * open, so a peer that never closes its side would otherwise hold the socket for good.
 */
const LINGER_MS = 2_000;

/** The refusal for a parser error: its status and a short message (never the raw bytes). */
export function clientErrorRefusal(error: Error & { code?: string }): { status: number; message: string } {
  return REFUSALS[error.code ?? ''] ?? MALFORMED;
}

/** A complete HTTP/1.1 answer: status line, JSON envelope, its length, and the connection closing. */
export function refusalResponse(status: number, message: string): string {
  const body = JSON.stringify(errorEnvelope(status, message));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Set on a socket once refused: a parser may report more than one error for the same connection. */
const refused = new WeakSet<Duplex>();

/**
 * The `clientError` listener. A reset, or a socket that can no longer be written, is destroyed at
 * once. Otherwise exactly one answer per request, then the connection ends: a refused head gets the
 * refusal, after the answer to an earlier (pipelined) request still being written, since a response
 * written in between would be read as that request's answer; a request whose body is malformed gets
 * the refusal only if the app has not answered it (the app waits for the rest of the body, which
 * never comes, so without it the client would hang), and nothing more when it has.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (refused.has(socket)) return;
  refused.add(socket);
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  answerOnce(error, socket);
}

function answerOnce(error: Error & { code?: string }, socket: Duplex): void {
  const state = connectionState(socket);
  switch (state.kind) {
    case 'earlier-answer-in-flight':
      state.response.once('finish', () => answerOnce(error, socket));
      return;
    case 'answered':
      if (state.response && !state.response.writableFinished) state.response.once('finish', () => closeAfterAnswer(socket));
      else closeAfterAnswer(socket);
      return;
    default:
      refuse(error, socket);
  }
}

function refuse(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorRefusal(error);
  socket.end(refusalResponse(status, message));
  lingerThenDestroy(socket);
}

/** The request has its answer; the connection cannot carry another (the parser failed), so it ends. */
function closeAfterAnswer(socket: Duplex): void {
  if (socket.writable) socket.end();
  lingerThenDestroy(socket);
}

function lingerThenDestroy(socket: Duplex): void {
  const linger = setTimeout(() => socket.destroy(), LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  // Whatever the peer still sends is read and dropped, so it cannot fill the buffers until the close.
  socket.resume();
}

/** Installs the envelope answer for protocol-level refusals on `server` (idempotent); returns it. */
export function answerClientErrorsWithEnvelope<S extends Server>(server: S): S {
  if (!server.listeners('clientError').includes(answerClientError)) server.on('clientError', answerClientError);
  return server;
}
