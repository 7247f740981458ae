/**
 * A refusal as a person reads it: each entry of the error envelope (docs/contract.md, Errors) on its
 * own line with its status and the input it is about, then Retry-After and the request id when the
 * answer has them (what a user quotes to an operator).
 */
import type { ApiAnswer } from '../http.js';

interface EnvelopeEntry {
  readonly code?: number;
  readonly message?: string;
  readonly path?: readonly string[];
}

/** The envelope's entries, or one made of the status and body when the answer is not an envelope (a proxy's page). */
export function envelopeEntries(answer: ApiAnswer): EnvelopeEntry[] {
  const errors = (answer.body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(errors) && errors.length > 0) return errors as EnvelopeEntry[];
  const text = typeof answer.body === 'string' ? answer.body.trim().slice(0, 200) : JSON.stringify(answer.body);
  return [{ code: answer.status, message: `HTTP ${answer.status} without the error envelope${text ? `: ${text}` : ''}` }];
}

/** One line per error, e.g. `error 400: page must be between 1 and 100 (query.page)`. */
export function renderError(answer: ApiAnswer): string {
  const lines = envelopeEntries(answer).map((e) => `error ${e.code ?? answer.status}: ${e.message ?? 'no message'}${e.path?.length ? ` (${e.path.join('.')})` : ''}`);
  const retryAfter = answer.headers.get('retry-after');
  if (retryAfter) lines.push(`  retry after: ${retryAfter} s`);
  const requestId = answer.headers.get('x-request-id');
  if (requestId) lines.push(`  request id: ${requestId}`);
  return lines.join('\n');
}

/** The first error's message, for a cell of the many-mode table. */
export function firstErrorMessage(answer: ApiAnswer): string {
  const [first] = envelopeEntries(answer);
  return first?.message ?? `HTTP ${answer.status}`;
}
