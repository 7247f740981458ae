import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetAutocompleteSuggestionsRequest, GetAutocompleteSuggestionsResponseSchema } from '@retail/contract';
import type { Marketplace } from '../marketplaces/index.js';
import type { AutocompleteSuggestionInit } from '../parsers/autocomplete.js';
import { domainMarketplace, type MarketplaceRequest } from '../validation/request-fields.js';
import { unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type AutocompleteResponseInit = MessageInitShape<typeof GetAutocompleteSuggestionsResponseSchema>;

export interface AutocompleteRequest extends MarketplaceRequest {
  readonly searchTerm: string;
  readonly category: string | undefined;
}

const normalizeAutocompleteRequest = (m: GetAutocompleteSuggestionsRequest): AutocompleteRequest => ({
  marketplace: domainMarketplace(m.domain),
  searchTerm: m.searchTerm.trim(),
  category: m.category,
});

/** Path of the suggestion endpoint on the marketplace's suggestion host (registry: `suggestionHost`). */
export const SUGGESTIONS_PATH = '/api/2017/suggestions';

/** How many suggestions the storefront's own search box asks for. */
const SUGGESTION_LIMIT = '11';

/**
 * The endpoint's query as the storefront's search box sends it. The host and `mid` (the
 * marketplace's id) come from the marketplace registry; the term and alias from the validated request.
 */
export function suggestionsQuery(searchTerm: string, category: string | undefined, m: Marketplace): Record<string, string> {
  return {
    limit: SUGGESTION_LIMIT,
    prefix: searchTerm,
    'suggestion-type': 'KEYWORD',
    mid: m.marketplaceId,
    alias: category ?? 'aps',
    'site-variant': 'desktop',
    'client-info': 'amazon-search-ui',
  };
}

export const getAutocompleteSuggestions: OperationHandler<AutocompleteRequest, AutocompleteResponseInit> = async (request, ctx) => {
  const page = await readPage<AutocompleteSuggestionInit[] | null>(
    ctx,
    { path: SUGGESTIONS_PATH, query: suggestionsQuery(request.searchTerm, request.category, request.marketplace), kind: 'autocomplete', what: 'search suggestions' },
    'autocomplete',
    {
      usable: (suggestions) => {
        if (!suggestions) throw unparseable('search suggestions', 'the suggestion endpoint did not answer its JSON shape');
      },
    },
  );
  return { retailSearchAutocompleteResults: page.value ?? [], meta: metaOfParsed(page) };
};

export const getAutocompleteSuggestionsOperation = defineOperation('GetAutocompleteSuggestions', { normalize: normalizeAutocompleteRequest, handle: getAutocompleteSuggestions });
