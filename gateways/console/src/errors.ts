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
