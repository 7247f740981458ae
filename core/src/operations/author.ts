import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetAuthorRequest, GetAuthorResponseSchema } from '@retail/contract';
import type { AuthorInit } from '../parsers/author.js';
import { validateAsin } from '../validation/asin.js';
import { domainMarketplace, type MarketplaceRequest, pageOrFirst } from '../validation/request-fields.js';
import { unparseable } from './fetch-parse.js';
import { defineOperation } from './operation.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type AuthorResponseInit = MessageInitShape<typeof GetAuthorResponseSchema>;

export interface AuthorRequest extends MarketplaceRequest {
  /** The author's identifier, upper case. */
  readonly authorId: string;
  readonly page: number;
}

// Author identifiers are ASIN-shaped; the request names the field `asin`.
const normalizeAuthorRequest = (m: GetAuthorRequest): AuthorRequest => ({ marketplace: domainMarketplace(m.domain), authorId: validateAsin(m.asin, 'asin'), page: pageOrFirst(m.page) });

/** `/stores/author/<ID>` (`?page=N` after the first page), from the validated identifier only. */
export function authorPath(authorId: string): string {
  return `/stores/author/${authorId}`;
}

export const getAuthor: OperationHandler<AuthorRequest, AuthorResponseInit> = async (request, ctx) => {
  const page = await readPage<AuthorInit>(
    ctx,
    { path: authorPath(request.authorId), ...(request.page > 1 ? { query: { page: String(request.page) } } : {}), kind: 'author', what: 'author' },
    'author',
    {
      args: { authorId: request.authorId, page: request.page },
      // Without the author's name the page is not an author page the service can describe.
      usable: (author) => {
        if (!author.name) throw unparseable('author', 'no author name (JSON-LD Person, author-name or #ap-author-name)');
      },
    },
  );
  const author = page.value;
  return { retailAuthor: author, meta: metaOfParsed(page) };
};

export const getAuthorOperation = defineOperation('GetAuthor', { normalize: normalizeAuthorRequest, handle: getAuthor });
