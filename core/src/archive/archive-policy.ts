/**
 * Which fetched pages the archive keeps (docs/page-archive.md): every page a watch refresh read,
 * every page the core refused (blocked, unparseable), every page whose parse lacked a field its
 * kind requires, and a sample of the rest. "Requires" is field health's declaration
 * (pages/field-declarations.ts): the same table judges a parse for the incidents and for the archive.
 */
import type { ArchiveReason } from '@retail/contract/page-archive-handoff';
import { missingRequiredFields } from '../pages/field-declarations.js';
import type { ArchiveHint } from './archive-hint.js';

/** The required fields (field health's declaration of the parser) the record lacks: empty when complete or undeclared. */
export function missingFields(parser: string, record: unknown): string[] {
  return missingRequiredFields(parser, record);
}

export interface ArchiveVerdictInput {
  readonly hint: ArchiveHint | undefined;
  readonly refused?: 'blocked' | 'unparseable';
  readonly missing: readonly string[];
  /** A draw in [0, 1) for the sample. */
  readonly draw: number;
  readonly sampleRate: number;
}

/** Why the page is kept, or undefined when it is not. The strongest reason wins. */
export function archiveReason(input: ArchiveVerdictInput): ArchiveReason | undefined {
  if (input.refused) return input.refused;
  if (input.missing.length > 0) return 'incomplete';
  if (input.hint === 'watch-refresh') return 'watch-refresh';
  return input.draw < input.sampleRate ? 'sample' : undefined;
}
