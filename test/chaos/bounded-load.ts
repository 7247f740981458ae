/** How long a chaos test's load may run (runBounded's `budgetMs` in the fuzzers and the faults test). */
export const LOAD_BUDGET_MS = 60_000;
/**
 * The limit of a test whose load has LOAD_BUDGET_MS: the load, then its setup and checks, on a loaded
 * machine (the suite's 30 s limit timed units conservation out).
 */
export const LOADED_TEST_LIMIT_MS = 2 * LOAD_BUDGET_MS;

/**
 * Runs `count` tasks with at most `concurrency` in flight and stops starting new ones after
 * `budgetMs` or once `stop()` says so: every load loop of the chaos tier is bounded in both count
 * and time.
 */
export async function runBounded<T>(
  count: number,
  concurrency: number,
  budgetMs: number,
  task: (index: number) => Promise<T>,
  stop: () => boolean = () => false,
): Promise<T[]> {
  const results: T[] = [];
  const stopAt = Date.now() + budgetMs;
  let next = 0;
  const worker = async () => {
    while (next < count && Date.now() < stopAt && !stop()) {
      const index = next++;
      results.push(await task(index));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
