/**
 * The page archive's settings, read from the environment with the core's config (CoreConfig.pageArchive):
 * PAGE_ARCHIVE_DAYS (0 turns archiving off; the watcher keeps pages that long),
 * PAGE_ARCHIVE_SAMPLE (share of other pages kept), PAGE_ARCHIVE_STREAM_MAX (the hand-off's bound),
 * and the cache Redis the hand-off lives on (CACHE_REDIS_URL, else REDIS_URL; in memory without).
 */
import { blankToUndefined as blank, EnvironmentError } from '@retail/contract/environment';
import { DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES } from '@retail/contract/page-archive-handoff';
import { processPageArchiveStream } from '@retail/contract/page-archive-memory';
import { z } from 'zod';
import type { Logger } from 'pino';
import { createPageArchiveTap, type PageArchiveTap } from './page-archive-tap.js';
import { createRedisPageArchiveOutbox } from './redis-outbox.js';

const settingsSchema = z.object({
  PAGE_ARCHIVE_DAYS: z.preprocess(blank, z.coerce.number().int().min(0).max(3650).default(30)),
  PAGE_ARCHIVE_SAMPLE: z.preprocess(blank, z.coerce.number().min(0).max(1).default(0.01)),
  PAGE_ARCHIVE_STREAM_MAX: z.preprocess(blank, z.coerce.number().int().min(1).default(DEFAULT_PAGE_ARCHIVE_MAX_ENTRIES)),
  CACHE_REDIS_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
});

export interface PageArchiveSettings {
  readonly enabled: boolean;
  readonly sampleRate: number;
  readonly maxEntries: number;
  readonly redisUrl: string | undefined;
}

/** The settings, or an EnvironmentError naming each bad variable (never its value); the core's config check runs this at start. */
export function pageArchiveSettings(env: Readonly<Record<string, string | undefined>> = process.env): PageArchiveSettings {
  const parsed = settingsSchema.safeParse(env);
  if (!parsed.success) throw new EnvironmentError('page archive', parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`));
  const s = parsed.data;
  return { enabled: s.PAGE_ARCHIVE_DAYS > 0, sampleRate: s.PAGE_ARCHIVE_SAMPLE, maxEntries: s.PAGE_ARCHIVE_STREAM_MAX, redisUrl: s.CACHE_REDIS_URL || s.REDIS_URL || undefined };
}

/** A tap and what it opened (a Redis connection for the hand-off), to close with the page services. */
export interface OwnedPageArchiveTap {
  readonly tap: PageArchiveTap;
  close(): Promise<void>;
}

/**
 * The tap of a core's settings, none when archiving is off: the hand-off on the cache Redis, or
 * without one on the process's in-memory stream (the one-process stack's watcher reads that).
 */
export function createPageArchiveTapFrom(settings: PageArchiveSettings, logger?: Pick<Logger, 'warn'>): OwnedPageArchiveTap | undefined {
  if (!settings.enabled) return undefined;
  const outbox = settings.redisUrl ? createRedisPageArchiveOutbox({ url: settings.redisUrl, maxEntries: settings.maxEntries }) : processPageArchiveStream().outbox;
  return {
    tap: createPageArchiveTap({ outbox, sampleRate: settings.sampleRate, ...(logger ? { logger } : {}) }),
    // The process's stream outlives any one core: only a connection of this core's own is closed.
    close: async () => {
      if (settings.redisUrl) await outbox.close();
    },
  };
}

let processTap: PageArchiveTap | null | undefined;

/**
 * For a parsed-page source built without a core's settings (a bench, a unit test): the tap of the
 * process's environment, built once (none when archiving is off). Settings it cannot read give no
 * archive and a warning rather than a failure; the core's own config check refuses them at start.
 */
export function processPageArchiveTap(logger?: Pick<Logger, 'warn'>): PageArchiveTap | undefined {
  if (processTap !== undefined) return processTap ?? undefined;
  try {
    processTap = createPageArchiveTapFrom(pageArchiveSettings(), logger)?.tap ?? null;
  } catch (error) {
    logger?.warn({ err: error }, 'page archive off: its settings are invalid');
    processTap = null;
  }
  return processTap ?? undefined;
}
