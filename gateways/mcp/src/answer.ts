/**
 * A successful tool answer: `structuredContent` is the compact record (compact-record.ts) and the one
 * text block is a short summary line, then the same compact JSON, not a second full copy. The summary
 * says what was left out and how to get it: the lists that were cut (and the cursor that continues
 * them), the texts that were trimmed, and that empty and bulky fields are left out.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { DescMessage } from '@bufbuild/protobuf';
import { type WireObject, selectValue } from '@retail/contract';
import { type AnswerShape, cursorAt } from './answer-arguments.js';
import { type CompactRecord, MAX_TEXT, compactRecord } from './compact-record.js';

/** The cursor of the next answer: after the longest of the record's own lists that was cut. */
export function nextCursor({ cuts }: CompactRecord, shape: AnswerShape): string | undefined {
  const more = cuts.filter((c) => !c.nested && c.from + c.shown < c.total);
  return more.length > 0 ? cursorAt(shape.offset + shape.limit) : undefined;
}

/** One line a model reads first: what it got, and what it did not. */
export function summaryLine(root: string, compact: CompactRecord, cursor: string | undefined): string {
  const parts: string[] = [`${root}: compact record`];
  if (compact.bulky.length > 0) parts.push(`left out: ${compact.bulky.join(', ')}`);
  if (compact.emptied) parts.push('empty fields left out');
  const own = compact.cuts.filter((c) => !c.nested);
  if (own.length > 0) parts.push(`lists cut: ${own.map((c) => `${c.path} items ${c.shown === 0 ? 'none' : `${c.from + 1}–${c.from + c.shown}`} of ${c.total}`).join(', ')}`);
  const nested = compact.cuts.filter((c) => c.nested);
  if (nested.length > 0) parts.push(`lists inside items cut to their first ${nested[0]!.shown}: ${nested.map((c) => c.path).join(', ')}`);
  if (cursor) parts.push(`more with cursor "${cursor}" (a call like any other)`);
  if (own.length > 0 || nested.length > 0) parts.push('listLimit sets the items per list');
  if (compact.trimmed > 0) parts.push(`${compact.trimmed} texts over ${MAX_TEXT} characters trimmed (marked …)`);
  return `${parts.join('; ')}.`;
}

/** The tool result of a successful call: the compact record in both places, the summary first in the text. */
export function compactAnswer(
  response: DescMessage,
  root: string,
  data: WireObject,
  shape: AnswerShape,
  _meta: Record<string, unknown>,
): CallToolResult {
  // Fields the client named are kept even when bulky; the rest of the record's rules still apply.
  const record = data[root];
  const chosen = shape.fields && record !== undefined ? { ...data, [root]: selectValue(record, shape.fields) } : data;
  const compact = compactRecord(response, chosen, { ...shape, keepBulky: shape.fields !== undefined });
  const cursor = nextCursor(compact, shape);
  const body = { data: compact.record };
  return {
    content: [{ type: 'text', text: `${summaryLine(root, compact, cursor)}\n${JSON.stringify(body)}` }],
    structuredContent: body,
    _meta: { ..._meta, ...(cursor ? { nextCursor: cursor } : {}) },
  };
}
