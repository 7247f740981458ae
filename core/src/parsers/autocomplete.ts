import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AutocompleteSuggestionSchema } from '@retail/contract';
import { cleanText, tryJson } from './common/dom.js';

export type AutocompleteSuggestionInit = MessageInitShape<typeof AutocompleteSuggestionSchema>;

/*
 * The marketplace's suggestion endpoint (`completion.<host>/api/2017/suggestions`) answers JSON:
 *   { "alias": "aps", "prefix": "iph", "suggestions": [ { "type": "KEYWORD", "value": "iphone 15 case",
 *     "refTag": "nb_sb_ss_i_1_3", "strategyId": "organic", ... }, ... ], "responseId": "..." }
 * Keyword suggestions are kept in the endpoint's order; other suggestion types (widgets, "in
 * department" rows without a keyword) and duplicates are left out. The older endpoint's array answer
 * is read too.
 */

/** The parsed answer, or undefined when the body is not the endpoint's JSON shape. */
export function parseAutocompleteJson(body: string): AutocompleteSuggestionInit[] | undefined {
  const json = tryJson<unknown>(body.trim());
  // The older `/search/complete` answer: ["prefix", ["term", ...], [metadata], []].
  if (Array.isArray(json)) {
    if (typeof json[0] !== 'string' || !Array.isArray(json[1])) return undefined;
    return keywords((json[1] as unknown[]).map((value) => ({ value })));
  }
  if (!json || typeof json !== 'object' || !Array.isArray((json as { suggestions?: unknown }).suggestions)) return undefined;
  return keywords((json as { suggestions: unknown[] }).suggestions);
}

function keywords(items: readonly unknown[]): AutocompleteSuggestionInit[] {
  const seen = new Set<string>();
  const out: AutocompleteSuggestionInit[] = [];
  for (const item of items) {
    if (!item || typeof item !== 'object') continue;
    const { type, suggType, value } = item as { type?: unknown; suggType?: unknown; value?: unknown };
    const kind = typeof type === 'string' ? type : typeof suggType === 'string' ? suggType : 'KEYWORD';
    if (!/^KEYWORD$|KeywordSuggestion/i.test(kind)) continue;
    const text = typeof value === 'string' ? cleanText(value) : undefined;
    if (!text || seen.has(text)) continue;
    seen.add(text);
    out.push({ suggestion: text });
  }
  return out;
}
