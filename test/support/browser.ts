import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { launchHeadlessChromium } from './chromium.js';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const TAB_DIRECTORY = join(REPO_ROOT, 'dist', 'tab');
/** Screenshots the tests keep for people to look at (git-ignored). */
export const ARTIFACTS_DIRECTORY = join(REPO_ROOT, 'test-artifacts');

export interface TestBrowser {
  context: BrowserContext;
  newPage(options?: { colorScheme?: 'light' | 'dark'; forcedColors?: 'active' | 'none' }): Promise<Page>;
  close(): Promise<void>;
}

/** Headless Chromium (see chromium.ts for which build) with a fresh profile, as design section 8 describes. */
export async function launchTestBrowser(): Promise<TestBrowser> {
  if (!existsSync(join(TAB_DIRECTORY, 'index.html'))) throw new Error(`The tab is not built (${TAB_DIRECTORY}): run npm run build first.`);
  const profile = mkdtempSync(join(tmpdir(), 'dmhealth-chromium-profile-'));
  const context = await launchHeadlessChromium(profile, { viewport: { width: 1400, height: 900 } }).catch((error: unknown) => {
    rmSync(profile, { recursive: true, force: true });
    throw error;
  });
  return {
    context,
    async newPage(options = {}) {
      const page = await context.newPage();
      await page.emulateMedia({ colorScheme: options.colorScheme ?? 'light', forcedColors: options.forcedColors ?? 'none' });
      return page;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export async function saveScreenshot(page: Page, name: string, folder: 'tab' | 'bot' = 'tab'): Promise<string> {
  mkdirSync(join(ARTIFACTS_DIRECTORY, folder), { recursive: true });
  const path = join(ARTIFACTS_DIRECTORY, folder, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** axe-core's own build, injected into a page under test. */
export const AXE_SCRIPT_PATH = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/**
 * The little of the page's globals that the tests' in-page functions use. Tests are type-checked
 * for Node, without the DOM library, so an in-page function reaches them through
 * `globalThis as unknown as PageGlobals`; only the type is shared, the function runs in the page.
 */
export interface PageElement {
  matches(selector: string): boolean;
  hasAttribute(name: string): boolean;
  textContent: string | null;
}

export interface PageGlobals {
  document: {
    activeElement: PageElement | null;
    querySelector(selector: string): PageElement | null;
    createRange(): { selectNodeContents(node: unknown): void; getBoundingClientRect(): { left: number } };
    /** The page's running animations (Web Animations): each `finished` once it has ended, an endless one never. */
    getAnimations(): Array<{ finished: Promise<unknown>; effect: { getComputedTiming(): { endTime?: number | string } } | null }>;
  };
  axe: { run(context: unknown, options: object): Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: string[] }> }> }> };
}
