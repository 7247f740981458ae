import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Workspace packages export their TypeScript sources under the "source" condition, so tests run
// against src/ without a build step (production images build dist/ instead).
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '**/dist/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Servers a test starts in its own process log at the process's level (pino writes to fd 1, past
    // vitest's console capture): silent unless asked, as the harness's core is (LOG_LEVEL=debug still
    // works). Tests of log output give their logger a level and a destination of their own.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' },
    // Vitest's default runs one file at a time on a 2-core machine (cores - 1). Most files wait on real
    // servers, browsers and child processes rather than compute, so one per core and never fewer than
    // two: on these 2-core machines the suite took 742 s one at a time on a quiet machine (CI), and
    // two at a time 362–422 s on a quiet machine (.ci/run, Node 20 and 22) and 672 s beside other work.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
