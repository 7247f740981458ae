import type { ServerUnaryCall } from '@grpc/grpc-js';
import { ErrorReason } from '@retail/contract';
import { CoreError } from '../errors.js';

/** What a call signal reads of a grpc-js call, unary or server-streaming. */
type ServerSurfaceCall = Pick<ServerUnaryCall<unknown, unknown>, 'getDeadline' | 'once' | 'removeListener'>;

/** Longest a call may run when the client set no deadline. */
export const DEFAULT_CALL_BUDGET_MS = 30_000;

export interface CallSignal {
  readonly signal: AbortSignal;
  /** True once the deadline (or the default budget) has passed. */
  deadlinePassed(): boolean;
  /** When the call's deadline (or its default budget) ends, epoch ms. */
  readonly endsAt: number;
  /** Stops the timer; call when the call ends. */
  dispose(): void;
}

/**
 * The call's deadline and cancellation as one AbortSignal, handed to handlers and on to every
 * upstream fetch. Aborting at the deadline uses a CoreError(UPSTREAM_TIMEOUT) as the abort reason,
 * so code that rethrows `signal.reason` reports the right status.
 */
export function callSignal(call: ServerSurfaceCall, defaultBudgetMs = DEFAULT_CALL_BUDGET_MS): CallSignal {
  const controller = new AbortController();
  const deadline = call.getDeadline();
  const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
  // The deadline is absolute: a handler that starts late (a busy event loop) has less of it left,
  // and grpc-js cancels the call at that same instant.
  const endsAt = Number.isFinite(deadlineMs) ? deadlineMs : Date.now() + defaultBudgetMs;
  const remaining = Math.max(0, endsAt - Date.now());
  let passed = false;
  const expire = () => {
    passed = true;
    controller.abort(new CoreError(ErrorReason.UPSTREAM_TIMEOUT, undefined));
  };
  const timer = setTimeout(expire, remaining);
  timer.unref();
  // grpc-js cancels the call itself when the deadline passes; that is a timeout, not a client cancel.
  // A few ms of slack: grpc-js's own deadline timer and this clock read can disagree by a tick.
  const onCancelled = () => (Date.now() >= endsAt - 20 ? expire() : controller.abort(new Error('the client cancelled the call')));
  call.once('cancelled', onCancelled);
  return {
    signal: controller.signal,
    endsAt,
    deadlinePassed: () => passed,
    dispose: () => {
      clearTimeout(timer);
      call.removeListener('cancelled', onCancelled);
    },
  };
}

/** Rejects when the signal aborts, so a handler that ignores its signal cannot hold the call open. */
export function abortRejection(signal: AbortSignal): { promise: Promise<never>; dispose(): void } {
  let onAbort: () => void = () => {};
  const promise = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {});
  return { promise, dispose: () => signal.removeEventListener('abort', onAbort) };
}
