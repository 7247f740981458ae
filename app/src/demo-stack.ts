/**
 * The stack `npm run demo` runs: the one-process service against the marketplace replay server,
 * which serves the project's own fixtures and, when present, the recorded pages of the corpus
 * (RETAIL_CORPUS, else ../shared/corpus), plus the catalogue of what those recordings answer,
 * derived from the replay server's own list. Shared by demo.ts and the tests that must run exactly
 * the demo. Nothing leaves the machine.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildDemoCatalogue } from '../../test/replay/catalogue.js';
import { createReplayServer, type ReplayServer } from '../../test/replay/server.js';
import { loadAppConfig } from './config.js';
import type { DemoCatalogue } from './demo-catalogue/model.js';
import { DEMO_CATALOGUE_PATH } from './demo-catalogue/paths.js';
import { type RunningStack, startStack } from './stack.js';

const root = resolve(import.meta.dirname, '../..');

export interface DemoStack {
  readonly stack: RunningStack;
  readonly replay: ReplayServer;
  readonly catalogue: DemoCatalogue;
  /** The folders the replay server serves, for the start banner. */
  readonly corpusDirs: readonly string[];
  stop(): Promise<void>;
}

/** The project's fixtures, then the corpus when it has an index. */
function demoSources(env: NodeJS.ProcessEnv): { dirs: string[]; labels: string[] } {
  const fixtures = resolve(root, 'test/fixtures/pages');
  const corpus = resolve(env.RETAIL_CORPUS ?? resolve(root, '../shared/corpus'));
  const withCorpus = existsSync(resolve(corpus, 'index.json'));
  return {
    dirs: [fixtures, ...(withCorpus ? [corpus] : [])],
    labels: ['the project\'s own fixture pages', ...(withCorpus ? ['the real pages of the corpus (RETAIL_CORPUS)'] : [])],
  };
}

export async function startDemoStack(env: NodeJS.ProcessEnv = process.env): Promise<DemoStack> {
  const { dirs, labels } = demoSources(env);
  const replay = await createReplayServer({ corpusDirs: dirs, port: 0, host: '127.0.0.1' });
  try {
    // What the recordings answer depends on whether the core will have a marketplace session.
    const catalogue = buildDemoCatalogue(replay.recordings, labels, { reviewsSession: Boolean(env.REVIEWS_SESSION_COOKIE?.trim()) });
    const demoEnv = { ...env, MARKETPLACE_ORIGIN: replay.origin };
    const stack = await startStack({ ...loadAppConfig(demoEnv), marketplaceOrigin: replay.origin }, demoEnv, {
      demoCatalogue: catalogue,
      landingLinks: [{ href: DEMO_CATALOGUE_PATH, title: 'Demo catalogue', description: 'Every product, search and category the demo has recorded, each with a ready link and curl.' }],
    });
    return {
      stack,
      replay,
      catalogue,
      corpusDirs: dirs,
      async stop() {
        await Promise.allSettled([stack.stop(), replay.close()]);
      },
    };
  } catch (error) {
    await replay.close();
    throw error;
  }
}
