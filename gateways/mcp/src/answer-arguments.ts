/**
 * The arguments that shape a lookup tool's answer rather than its request: `listLimit` (most items
 * of each list; not `limit`, which several lookups already have: the results a page asks for) and
 * `cursor` (where the record's lists continue). They are MCP's own: REST and gRPC answer whole
 * records, and GraphQL selects. They are taken out of the arguments before the request's parameters
 * are checked; a bad one is refused by the shared call as a shape error (400, pointing at it).
 *
 * `fields` is not MCP's own: it is every lookup's declared `read_mask` parameter (service.proto),
 * checked by the shared call and cut by the core as on REST and gRPC. It stays among the arguments;
 * here it is only read to keep the bulky fields it names, and its schema's description shortened.
 */
import type { DescMessage } from '@bufbuild/protobuf';
import { type FieldTree, RULE_MESSAGES, fieldSelection } from '@retail/contract';
import type { JsonSchema, ParameterError } from '@retail/gateway-shared';
import { MAX_TEXT } from './compact-record.js';

/** Items of each list a default answer shows. */
export const DEFAULT_LIST_LIMIT = 5;
/** Most items a client may ask for per list. */
export const MAX_LIST_LIMIT = 100;

export const ANSWER_ARGUMENTS: Record<string, JsonSchema> = {
  // Short on purpose: every lookup tool carries them; the server instructions say the rest once.
  listLimit: { type: 'integer', minimum: 1, maximum: MAX_LIST_LIMIT, default: DEFAULT_LIST_LIMIT, description: 'Items per list.' },
  // cursor has no description of its own (as dryRun): the instructions say where it comes from, and
  // its bytes on every tool are what skipOnIncident needs to keep the default listing under 20 KB.
  cursor: { type: 'string' },
  // The declared `fields` parameter's schema with a shorter description (every lookup tool carries it).
  fields: { type: 'string', description: 'Only these: title,price.value' },
};

/** What the server instructions say once about every lookup's answer. */
export const ANSWER_INSTRUCTIONS =
  `Lookup tools answer compact records: empty fields and bulky lists (images, bullets, specifications) left out, each list cut to listLimit items (default ${DEFAULT_LIST_LIMIT}), texts over ${MAX_TEXT} characters trimmed; the first text line says what was cut, and a call with cursor (from _meta.nextCursor) continues the cut lists. fields (a comma list of dotted paths of the record, such as title,price.value or productResults.results.asin) answers only those, bulky ones included.`;

export interface AnswerShape {
  readonly limit: number;
  readonly offset: number;
  /** The record's fields the client chose (`fields`); all when absent. */
  readonly fields?: FieldTree;
}

const CURSOR_PREFIX = 'o';

/** The opaque cursor that continues the lists at `offset`. */
export function cursorAt(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`).toString('base64url');
}

function offsetOf(cursor: string): number | undefined {
  const read = /^o(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return read ? Number(read[1]) : undefined;
}

export type SplitArguments =
  | { readonly ok: true; readonly shape: AnswerShape; readonly params: Record<string, unknown> }
  | { readonly ok: false; readonly errors: ParameterError[]; readonly params: Record<string, unknown> };

/** The tree of a `fields` argument the shared call will accept; a bad one it refuses (with the REST message), so none here. */
function fieldsOf(value: unknown, record: DescMessage): FieldTree | undefined {
  if (typeof value !== 'string') return undefined;
  const selection = fieldSelection(record, value.split(',').map((p) => p.trim()).filter(Boolean));
  return selection.ok ? selection.tree : undefined;
}

/** The answer's shape and the request's own parameters (`fields` among them); `record` is the message of the data root. */
export function splitAnswerArguments(args: Record<string, unknown>, record: DescMessage): SplitArguments {
  const { listLimit: limit = DEFAULT_LIST_LIMIT, cursor, ...params } = args;
  const errors: ParameterError[] = [];
  const validLimit = typeof limit === 'number' && Number.isInteger(limit) && limit >= 1 && limit <= MAX_LIST_LIMIT;
  if (!validLimit) errors.push({ message: RULE_MESSAGES.range('listLimit', 1, MAX_LIST_LIMIT), path: ['listLimit'] });
  const offset = cursor === undefined ? 0 : typeof cursor === 'string' ? offsetOf(cursor) : undefined;
  if (offset === undefined) errors.push({ message: RULE_MESSAGES.cursor('cursor'), path: ['cursor'] });
  if (errors.length > 0) return { ok: false, errors, params };
  const fields = fieldsOf(params.fields, record);
  return { ok: true, shape: { limit: limit as number, offset: offset!, ...(fields ? { fields } : {}) }, params };
}
