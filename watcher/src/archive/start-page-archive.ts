/**
 * The page archive's recorder, composed from the environment: the core's cache Redis stream
 * (CACHE_REDIS_URL, else REDIS_URL, as the core reads them) or, without one, the in-memory stream
 * the one-process stack's core writes to. PAGE_ARCHIVE_DAYS=0 turns it off, as it does in the core.
 */
import { processPageArchiveStream } from '@retail/contract/page-archive-memory';
import type { ArchivedPageRepository } from '../store/archived-pages.js';
import { createPageArchiveRecorder, type PageArchiveRecorder } from './page-archive-recorder.js';
import { createRedisPageArchiveInbox } from './redis-inbox.js';

export async function startPageArchiveRecorder(env: NodeJS.ProcessEnv, pages: ArchivedPageRepository, log: (line: string) => void): Promise<PageArchiveRecorder | undefined> {
  if (env.PAGE_ARCHIVE_DAYS === '0') return undefined;
  const url = env.CACHE_REDIS_URL || env.REDIS_URL;
  const inbox = url ? await createRedisPageArchiveInbox({ url }) : processPageArchiveStream().inbox();
  const recorder = createPageArchiveRecorder({ inbox, pages, log });
  recorder.start();
  return recorder;
}
