/**
 * Waits for something a real server does in its own time (a hand-off written, a webhook received): the
 * check is polled until it holds, or the wait fails naming what never happened. The timeout is a bound
 * on a failing test, never a measurement: a passing one returns as soon as the check holds.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
