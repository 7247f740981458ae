/**
 * Field health's view of the declarations (pages/field-declarations.ts, where they sit so that the
 * page archive below can read them too), keyed by the parser registry's ids: a declaration for a
 * parser the registry does not have fails the type check here.
 */
import { DECLARED_KINDS, FIELD_DECLARATIONS, type DeclaredField, type FieldLevel, type PageKindHealth } from '../pages/field-declarations.js';
import type { ParserId } from '../workers/parser-registry.js';

export { DECLARED_KINDS, type DeclaredField, type FieldLevel, type PageKindHealth };

type Undeclarable = Exclude<keyof typeof FIELD_DECLARATIONS, ParserId>;
/** Compiles only while every declared key is a registered parser id. */
const everyKeyIsAParser: [Undeclarable] extends [never] ? true : Undeclarable = true;
void everyKeyIsAParser;

/** The declaration of each parser the operations read through (operations/parsed-pages.ts). */
export const FIELD_HEALTH: Partial<Record<ParserId, PageKindHealth>> = FIELD_DECLARATIONS;

export function kindHealth(parser: ParserId): PageKindHealth | undefined {
  return FIELD_HEALTH[parser];
}
