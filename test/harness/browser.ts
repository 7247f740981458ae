/**
 * A real browser for tests: Debian's chromium (/usr/bin/chromium) driven by playwright-core, with
 * a new empty profile each launch and everything that could reach the network off.
 * `.ci/run` installs chromium when missing (`apt-get install -y chromium`).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Null when chromium is installed; otherwise the reason browser tests print when they skip. */
export function chromiumMissing(): string | null {
  return existsSync(CHROMIUM_PATH)
    ? null
    : `${CHROMIUM_PATH} is missing (apt-get install -y chromium, or set CHROMIUM_PATH); browser tests skipped`;
}

export interface LaunchedBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(options: { viewport?: { width: number; height: number } } = {}): Promise<LaunchedBrowser> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
    timeout: 60_000,
  });
  return {
    context,
    async close() {
      await context.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
