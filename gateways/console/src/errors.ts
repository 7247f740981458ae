/**
 * Console errors: a public message and status for the client (in the contract's envelope), and a
 * private cause for the log. Anything that is not a ConsoleError is a 500 with a generic message.
 */
import type { ErrorRequestHandler } from 'express';
import { errorEnvelope } from '@retail/contract';

export interface FieldProblem {
  readonly path: readonly string[];
  readonly message: string;
}

export class ConsoleError extends Error {
  constructor(
    readonly status: number,
    readonly publicMessage: string,
    readonly options: { path?: readonly string[]; retryAfterSeconds?: number; cause?: unknown } = {},
  ) {
    super(publicMessage, { cause: options.cause });
    this.name = 'ConsoleError';
  }
}

export const badRequest = (message: string, path?: readonly string[]) => new ConsoleError(400, message, path ? { path } : {});

/** One envelope with every field problem, so a form can show them all at once. */
export function envelopeForProblems(problems: readonly FieldProblem[]) {
  return {
    success: false as const,
    errors: problems.map((problem) => ({ code: 400, message: problem.message, path: [...problem.path] })),
  };
}

export class ValidationError extends ConsoleError {
  constructor(readonly problems: readonly FieldProblem[]) {
    super(400, problems[0]?.message ?? 'Invalid request', problems[0] ? { path: problems[0].path } : {});
  }
}

export type ErrorLogger = (message: string, detail: Record<string, unknown>) => void;

export function createErrorHandler(log: ErrorLogger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof ValidationError) {
      res.status(400).json(envelopeForProblems(error.problems));
      return;
    }
    if (error instanceof ConsoleError) {
      if (error.options.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.options.retryAfterSeconds));
      res.status(error.status).json(errorEnvelope(error.status, error.publicMessage, error.options.path));
      return;
    }
    const mapped = libraryError(error);
    if (mapped) {
      if (mapped.status === 503) res.setHeader('Retry-After', '1');
      if (mapped.status >= 500) log('console dependency failed', { method: req.method, path: req.path, error: String(error?.stack ?? error) });
      res.status(mapped.status).json(errorEnvelope(mapped.status, mapped.message));
      return;
    }
    // Body parser failures (malformed JSON, too large, wrong charset) are the client's fault: 4xx.
    const status = typeof error?.status === 'number' && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) {
      log('console request failed', { method: req.method, path: req.path, error: String(error?.stack ?? error) });
      res.status(500).json(errorEnvelope(500, 'Internal error'));
      return;
    }
    res.status(status).json(errorEnvelope(status, status === 413 ? 'Request body too large' : 'Malformed request body'));
  };
}

/**
 * Errors from the layers below, turned into what the user should see: the metering library's
 * admin misuse errors (MeteringAdminError: KEY_LIMIT, NOT_FOUND, INVALID) are 4xx with its public
 * message; a ledger (or its record in PostgreSQL) that cannot be reached is 503 (try again), not 500.
 */
function libraryError(error: unknown): { status: number; message: string } | undefined {
  if (!(error instanceof Error)) return undefined;
  if (error.name === 'MeteringAdminError') {
    const code = (error as Error & { code?: string }).code;
    if (code === 'KEY_LIMIT') return { status: 409, message: 'This account has the maximum number of active keys; revoke one first' };
    if (code === 'NOT_FOUND') return { status: 404, message: 'This account no longer exists' };
    if (code === 'INVALID') return { status: 400, message: error.message };
  }
  if (error.name === 'MaxRetriesPerRequestError' || error.name === 'RecordUnavailableError' || /ECONNREFUSED|ETIMEDOUT|Connection is closed|Stream isn't writeable/.test(error.message)) {
    return { status: 503, message: 'The account service is temporarily unavailable; try again shortly' };
  }
  return undefined;
}
