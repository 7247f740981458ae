import type { MessageInitShape } from '@bufbuild/protobuf';
import type { GetAuthorResponseSchema } from '@retail/contract';
import type { AuthorInit } from '../parsers/author.js';
import type { AuthorRequest } from '../validation/types.js';
import { unparseable } from './fetch-parse.js';
import { metaOfParsed, readPage } from './parsed-pages.js';
import type { OperationHandler } from './types.js';

type AuthorResponseInit = MessageInitShape<typeof GetAuthorResponseSchema>;

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
