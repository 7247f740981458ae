/**
 * How the fuzz tests judge one answer to a bad request: refused (never a success), below 500, and
 * in the contract's error shape for its interface. Returns the violation, or null when the answer
 * is right.
 */
import { isEnvelope, isGraphqlFieldErrors, mcpFailureIsWellFormed } from './envelope.js';
import type { RawAnswer } from './raw-http.js';

export interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
  readonly chargedHeader: string | null;
}

function common(answer: Answer): string | null {
  if (answer.status === 0) return 'no answer';
  if (answer.status >= 500) return `${answer.status}`;
  if (answer.chargedHeader !== null && answer.chargedHeader !== '0') return `charged ${answer.chargedHeader}`;
  if (answer.text === '') return `bare ${answer.status}`;
  return null;
}

export function restVerdict(answer: Answer): string | null {
  const problem = common(answer);
  if (problem) return problem;
  if (answer.status < 400) return `accepted (${answer.status})`;
  return isEnvelope(answer.body, answer.status) ? null : `no envelope on ${answer.status}`;
}

export function graphqlVerdict(answer: Answer): string | null {
  const problem = common(answer);
  if (problem) return problem;
  if (answer.status !== 200) return isEnvelope(answer.body, answer.status) ? null : `no envelope on ${answer.status}`;
  const body = answer.body as { data?: Record<string, unknown> | null; errors?: unknown };
  if (body?.data && Object.values(body.data).some((v) => v !== null)) return 'accepted (data)';
  return isGraphqlFieldErrors(body?.errors) && Array.isArray(body.errors) && body.errors.length > 0 ? null : '200 without well-formed errors';
}

export function mcpVerdict(answer: Answer): string | null {
  const problem = common(answer);
  if (problem) return problem;
  const messages = Array.isArray(answer.body) ? answer.body : [answer.body];
  if (messages.length === 0) return 'empty batch answer';
  for (const message of messages) {
    const verdict = mcpFailureIsWellFormed(answer.status, message);
    if (verdict === null) return 'accepted (tool result)';
    if (!verdict) return `malformed JSON-RPC answer on ${answer.status}`;
  }
  return null;
}

/**
 * A raw-socket answer: a complete 4xx response whose body is the envelope (or, for a head that
 * reached the MCP endpoint, a JSON-RPC error). No answer at all, a hang, or an empty body is a bare
 * refusal.
 */
export function rawHeadVerdict(answer: RawAnswer): string | null {
  if (answer.hung) return 'hung (no answer, not closed)';
  if (answer.status === 0) return 'closed without an answer';
  if (answer.status >= 500) return `${answer.status}`;
  if (answer.status < 400) return `accepted (${answer.status})`;
  if (answer.body === '') return `bare ${answer.status}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `non-JSON body on ${answer.status}`;
  }
  const rpc = body as { jsonrpc?: string; error?: { code?: unknown } };
  if (isEnvelope(body, answer.status) || (rpc?.jsonrpc === '2.0' && typeof rpc.error?.code === 'number')) return null;
  return `no envelope on ${answer.status}`;
}
