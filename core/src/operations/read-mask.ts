/**
 * The request's `read_mask` (AIP-157 partial response), shared by every lookup as skipOnIncident
 * is: checked here against the operation's record in proto field names (`price.value`,
 * `product_results.results.asin`), carried past the normalizer as the selection, and applied by the
 * runner to the response it built (run-operation.ts). Why the core cuts and not each gateway:
 * @retail/contract field-paths.ts. Page caching is untouched: the cut runs on the response, after
 * the handler read its pages, so one cached page serves every selection.
 */
import type { DescMethod, Message } from '@bufbuild/protobuf';
import type { FieldMask } from '@bufbuild/protobuf/wkt';
import { type FieldSelection, RULE_MESSAGES, fieldSelection, recordOfResponse } from '@retail/contract';
import { invalidArgument } from '../errors.js';

/** The request field, as the error's field_path names it. */
const READ_MASK_FIELD = 'read_mask';

/** Longest path echoed back in a refusal; the rest is cut with an ellipsis. */
const MAX_ECHOED_PATH = 64;

export type Selection = Extract<FieldSelection, { ok: true }>;

/** What a request asked for: the fields its response keeps (none given: all of them). */
export interface FieldChoice {
  readonly selection?: Selection;
}

function echoed(path: string): string {
  // eslint-disable-next-line no-control-regex
  const printable = path.replace(/[\u0000-\u001f\u007f]/g, '?');
  return printable.length > MAX_ECHOED_PATH ? `${printable.slice(0, MAX_ECHOED_PATH)}…` : printable;
}

/** The selection the message's read_mask asks for; INVALID_ARGUMENT naming the first path the record has no field for. */
export function readMaskSelection(method: DescMethod, message: Message): Selection | undefined {
  const mask = (message as { readMask?: FieldMask }).readMask;
  if (!mask || mask.paths.length === 0) return undefined;
  const record = recordOfResponse(method.output);
  if (!record) throw invalidArgument(RULE_MESSAGES.unknownField(READ_MASK_FIELD, echoed(mask.paths[0]!)), READ_MASK_FIELD);
  const selection = fieldSelection(record, mask.paths, 'proto');
  if (!selection.ok) throw invalidArgument(RULE_MESSAGES.unknownField(READ_MASK_FIELD, echoed(selection.path)), READ_MASK_FIELD);
  return selection;
}
