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
    // Vitest's default runs one file at a time on a 2-core machine (cores - 1). Most files wait on real
    // servers, browsers and child processes rather than compute, so one per core and never fewer than
    // two: on these 2-core machines the suite took 742 s one at a time on a quiet machine (CI) and
    // 672 s two at a time with other work running beside it (load average 8).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
