/**
 * Repairing a running `npm start` (docs/page-archive.md, "Repairing history"): the one-process stack
 * on its own PGlite (which no second process may open) reading the replay server. A watch makes the
 * watcher refresh a product through the core, which archives the page; the watcher records it. While
 * the stack runs, the admin commands (the real runPagesCommand and runReparseCommand) are pointed at
 * it with WATCHER_ADDRESS and SERVICE_TOKEN as the banner's admin line prints them: `pages` finds the page and
 * writes it with --html, `reparse` runs on the stack's own job system and prints its report, a
 * second reparse over the same marketplace and kind started at the same moment is refused (exit 3,
 * naming the first), and `reparse status` and `reparse cancel` answer for the job.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WatchService } from '@retail/contract';
import { createCoreClient } from '@retail/gateway-shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPagesCommand } from '../../watcher/src/admin/pages-command.js';
import { runReparseCommand } from '../../watcher/src/admin/reparse-command.js';
import { formatBanner } from '../../app/src/welcome.js';
import { startOneProcess, type OneProcess } from '../harness/one-process.js';

/** A product of the fixture pages the replay server serves (test/fixtures/pages). */
const ASIN = 'B0FXTUS001';

type Command = (argv: string[], env: NodeJS.ProcessEnv, io: { out(line: string): void; err(line: string): void }) => Promise<number>;

async function run(command: Command, argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await command(argv, env, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('the admin commands against a running npm start', () => {
  let running: OneProcess;
  let env: NodeJS.ProcessEnv;
  const scratch = mkdtempSync(join(tmpdir(), 'admin-while-running-'));
  const startedAt = new Date();

  beforeAll(async () => {
    running = await startOneProcess();
    // The settings as the banner's admin line prints them, for the operator to copy.
    const line = formatBanner(running.stack, { upstream: 'test' }).split('\n').find((l) => l.includes('npm run --silent admin -- pages'));
    const [, address, token] = /^ {2}WATCHER_ADDRESS=(\S+) SERVICE_TOKEN=(\S+) npm run --silent admin -- pages /.exec(line ?? '') ?? [];
    expect([address, token]).toEqual([running.stack.watcherAddress, running.stack.serviceToken]);
    env = { WATCHER_ADDRESS: address, SERVICE_TOKEN: token };
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('finds the page a watch refreshed, re-parses it on the running watcher, and refuses a second job over the same marketplace and kind', async () => {
    const { stack } = running;
    const backends = createCoreClient({ address: stack.coreAddress, watcherAddress: stack.watcherAddress!, serviceToken: stack.serviceToken });
    await backends.unaryCall(WatchService.method.createWatch, { asin: ASIN, intervalSeconds: 3600 }, { requestId: 'admin-live-watch', accountId: stack.devAccountId });

    // The watch's first refresh runs shortly; the watcher records its page from the in-process hand-off.
    const html = join(scratch, 'page.html');
    const pagesArgv = ['--domain', 'US', '--kind', 'product', '--asin', ASIN, '--html', html];
    await expect.poll(async () => (await run(runPagesCommand, pagesArgv, env)).code, { timeout: 30_000, interval: 250 }).toBe(0);
    const found = await run(runPagesCommand, pagesArgv, env);
    const page = JSON.parse(found.out);
    expect(page).toMatchObject({ domain: 'US', kind: 'product', identifier: ASIN, status: 200, reason: 'watch-refresh', reparsedWith: null });
    expect(page.compressedBytes).toBeGreaterThan(0);
    expect(new Date(page.recordedAt).getTime()).toBeGreaterThanOrEqual(new Date(page.fetchedAt).getTime());
    expect(found.err).toContain(`page written to ${html}`);
    expect(readFileSync(html, 'utf8')).toMatch(/<html/i);

    // Two operators at the same moment: the database lets one job over US product be active.
    const window = ['--domain', 'US', '--kind', 'product', '--since', new Date(startedAt.getTime() - 60_000).toISOString(), '--force'];
    const [first, second] = await Promise.all([run(runReparseCommand, window, env), run(runReparseCommand, window, env)]);
    const [ran, refused] = first.code === 0 ? [first, second] : [second, first];
    expect(ran.code).toBe(0);
    expect(ran.err).toContain(`queued on the watcher at ${env.WATCHER_ADDRESS}`);
    const report = JSON.parse(ran.out);
    expect(report).toMatchObject({ state: 'done', domain: 'US', kind: 'product', force: true, skipped: 0, unreadable: 0 });
    expect(report.pages).toBeGreaterThanOrEqual(1);
    expect(report.reparsed).toBe(report.pages);
    expect(refused.code).toBe(3);
    expect(refused.err).toContain(`refused: reparse job ${report.id} over US product`);

    // The job ran on the stack: the page now says which parser read it again.
    const reread = JSON.parse((await run(runPagesCommand, pagesArgv, env)).out);
    expect(reread.reparsedWith).toBe(reread.parser);
    const status = await run(runReparseCommand, ['status', report.id], env);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toEqual(report);
    const cancel = await run(runReparseCommand, ['cancel', report.id], env);
    expect(cancel.code).toBe(1);
    expect(cancel.err).toBe(`reparse job ${report.id} is already done`);
    const unknown = await run(runReparseCommand, ['status', '00000000-0000-4000-8000-000000000000'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe('no reparse job 00000000-0000-4000-8000-000000000000');
  }, 90_000);
});
