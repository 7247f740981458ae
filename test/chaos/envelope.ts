/**
 * The error shapes of docs/contract.md (Errors), as predicates the chaos tests count violations with:
 * the envelope `{ success: false, errors: [{ code, message }] }` (REST, GraphQL request-level
 * failures), GraphQL field errors, and MCP's JSON-RPC errors and isError results.
 */
type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The envelope, every entry with a numeric code and a non-empty message (and `status` as its code when given). */
export function isEnvelope(body: unknown, status?: number): boolean {
  if (!isObject(body) || body.success !== false || !Array.isArray(body.errors) || body.errors.length === 0) return false;
  return body.errors.every(
    (e) => isObject(e) && typeof e.code === 'number' && typeof e.message === 'string' && e.message.length > 0 && (status === undefined || e.code === status),
  );
}

/** A GraphQL 200 answer's `errors[]` entries: message, code and extensions.code (docs/contract.md, Errors). */
export function isGraphqlFieldErrors(errors: unknown): boolean {
  return (
    Array.isArray(errors) &&
    errors.every((e) => isObject(e) && typeof e.message === 'string' && typeof e.code === 'number' && isObject(e.extensions) && e.extensions.code === e.code)
  );
}

/**
 * An MCP answer that reports a failure the contract way: a JSON-RPC error (numeric code, message;
 * `data` the envelope when the HTTP status is a metering refusal), or a tool result with
 * `isError: true` whose structuredContent is the envelope. Null when the answer is a success.
 */
export function mcpFailureIsWellFormed(status: number, body: unknown): boolean | null {
  if (!isObject(body) || body.jsonrpc !== '2.0') return false;
  if (isObject(body.error)) {
    const error = body.error;
    if (typeof error.code !== 'number' || typeof error.message !== 'string') return false;
    // Metering refusals and the body-size limit carry the envelope in `data` (docs/mcp.md); protocol
    // misuse keeps JSON-RPC's own codes and need not.
    return [401, 402, 403, 413, 429].includes(status) ? isEnvelope(error.data, status) : true;
  }
  if (isObject(body.result)) {
    if (body.result.isError !== true) return null;
    return isEnvelope(body.result.structuredContent);
  }
  return false;
}
