import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { INSTALLS_TELEMETRY_GLOBALS } from './test/isolated-files.js';

const TEST_FILES = ['**/*.test.ts'];
const NEVER_TESTS = ['**/node_modules/**', '**/dist/**'];

// Workspace packages export their TypeScript sources under the "source" condition, so tests run
// against src/ without a build step (production images build dist/ instead).
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'], externalConditions: ['source'] } },
  test: {
    exclude: NEVER_TESTS,
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
    projects: [
      {
        extends: true,
        // Each file loading the workspace's modules afresh cost more than its tests: on a quiet
        // machine (2026-11-27) the Node 20 suite took 565 s all isolated and 367 s split so, the
        // core's unit tests 31 s against 11 s. Every file starts and stops what it uses, and none of
        // these changes a global that another file reads (test/isolated-files.ts lists those).
        test: { name: 'shared-modules', include: TEST_FILES, exclude: [...INSTALLS_TELEMETRY_GLOBALS, ...NEVER_TESTS], isolate: false },
      },
      {
        extends: true,
        test: { name: 'isolated', include: [...INSTALLS_TELEMETRY_GLOBALS], isolate: true },
      },
    ],
  },
});
