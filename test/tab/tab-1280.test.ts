import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_IDS } from '../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { launchTestBrowser, saveScreenshot } from '../support/browser.js';
import type { TestBrowser } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

// The tenant's, the server's and the page's clocks are the test's, so the first screen is the same at any hour.
const now = new Date('2026-11-21T12:58:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });
const tab = useTabPages(harness, { now: () => now });

const [WIDTH, HEIGHT] = [1280, 800];
/** The most texts a report's first screen may show cut at their lines ("Show all", or whole in the row's pane). */
const MOST_CLAMPED = 5;

/**
 * What a report's first screen shows cut: each column header whose text does not fit its cell or that
 * stands past the table's right edge, the
 * texts cut at their lines in view, and every cell whose text breaks inside a word (a line that
 * ends where the next begins with no space or hyphen between, as "user26@contos" / "o-demo").
 */
const MEASURE = `(() => {
  const inView = (element) => { const box = element.getBoundingClientRect(); return box.height > 1 && box.top < innerHeight && box.bottom > 0; };
  const headersCut = [];
  for (const header of document.querySelectorAll('[role=columnheader]')) {
    // Cut by the table's own edge: the table scrolls sideways and the column starts out of view.
    const region = header.closest('[role=region]').getBoundingClientRect();
    if (header.getBoundingClientRect().right > region.right + 1) { headersCut.push(header.textContent.trim() + ' (past the edge)'); continue; }
    for (const element of [header, ...header.querySelectorAll('*')]) {
      if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible') { headersCut.push(header.textContent.trim()); break; }
    }
  }
  const clamped = [...document.querySelectorAll('[data-clamped=true], [data-long-text]')]
    .filter((element) => inView(element) && (element.matches('[data-clamped=true]') || element.scrollHeight > element.clientHeight + 1))
    .map((element) => element.textContent.trim().slice(0, 40));
  const brokenInWords = [];
  for (const cell of document.querySelectorAll('[role=table] [role=cell]')) {
    if (!inView(cell)) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const whole = document.createRange();
      whole.selectNodeContents(node);
      // A text on one line breaks nowhere: only those on several are read a character at a time.
      if (new Set([...whole.getClientRects()].map((box) => Math.round(box.top))).size <= 1) continue;
      let top = null;
      for (let index = 0; index < text.length; index += 1) {
        const range = document.createRange();
        range.setStart(node, index);
        range.setEnd(node, index + 1);
        const box = range.getClientRects()[0];
        if (!box) continue;
        // A new line that starts inside a word: neither this character nor the one before is a space, nor the one before a hyphen or slash.
        if (top !== null && box.top > top + 2 && index > 0 && !/[\\s\\-\\/]/.test(text[index - 1]) && !/\\s/.test(text[index])) brokenInWords.push(text);
        top = box.top;
      }
    }
  }
  return { headersCut, clamped, brokenInWords: [...new Set(brokenInWords)] };
})()`;

interface Measured {
  headersCut: string[];
  clamped: string[];
  brokenInWords: string[];
}

// One browser of the test's own for every report (its page's clock stands at the test's `now`),
// started once: a browser a test took much of a busy machine's limit to start.
let browser: TestBrowser;
let page: Page;
beforeAll(async () => {
  browser = await launchTestBrowser();
  page = await browser.newPage();
  await page.clock.setFixedTime(now);
  await page.setViewportSize({ width: WIDTH, height: HEIGHT });
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe(`the tab at ${WIDTH}×${HEIGHT}`, () => {
  // One report a test: each loads and measures in a few seconds, even on a busy machine.
  it.each(REPORT_IDS)('shows %s with each column header whole, names broken only between words, and at most five texts cut at their lines on its first screen', async (id) => {
    // A fresh load of the tab, so that nothing measured is the report before's.
    await page.goto('about:blank');
    await page.goto(`${tab.server.base}/tab/#/${id}`);
    await page.locator('[role=table] [data-open-row]').first().waitFor();
    await page.locator('section[aria-label=Findings] [data-triage-log]').waitFor();
    const measured = (await page.evaluate(MEASURE)) as Measured;
    await saveScreenshot(page, `report-${id}-${WIDTH}x${HEIGHT}`);
    expect(measured.headersCut).toEqual([]);
    expect(measured.clamped.length, `texts cut at their lines: ${measured.clamped.join(' | ')}`).toBeLessThanOrEqual(MOST_CLAMPED);
    expect(measured.brokenInWords).toEqual([]);
  });

  it("gives report 4's User column room for each user principal name on one or two lines", async () => {
    await page.goto('about:blank');
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[role=table] [data-open-row]').first().waitFor();
    // Each User cell in view: how many lines its text takes.
    const lines = (await page.evaluate(`(() => {
      const table = document.querySelector('[role=table]');
      const headers = [...table.querySelectorAll('[role=columnheader]')].map((header) => header.textContent.trim());
      const column = headers.findIndex((text) => text.startsWith('User'));
      const counts = [];
      for (const row of table.querySelectorAll('[role=row]')) {
        const cell = row.querySelectorAll('[role=cell]')[column];
        if (!cell || !cell.textContent.includes('@')) continue;
        const box = cell.getBoundingClientRect();
        if (box.top >= innerHeight || box.bottom <= 0) continue;
        // The lines of its text alone: an element's own box (a span's padding) would count as one more.
        const tops = new Set();
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const range = document.createRange();
          range.selectNodeContents(node);
          for (const rect of range.getClientRects()) tops.add(Math.round(rect.top));
        }
        counts.push({ text: cell.textContent, lines: tops.size });
      }
      return counts;
    })()`)) as Array<{ text: string; lines: number }>;
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.filter((cell) => cell.lines > 2)).toEqual([]);
  });

  it('says "No triage yet" where nothing was accepted, snoozed or reopened, rather than show a greyed-out button', async () => {
    await page.goto('about:blank');
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const log = page.locator('section[aria-label=Findings] [data-triage-log]');
    await log.waitFor();
    expect(await log.textContent()).toBe('No triage yet');
    expect(await log.evaluate((element) => (element as unknown as { tagName: string }).tagName)).not.toBe('BUTTON');
    expect(await page.locator('section[aria-label=Findings] button:disabled, section[aria-label=Findings] [aria-disabled=true]').count()).toBe(0);
  });

  it("draws each row's findings count as a button, with a border, not as plain text", async () => {
    await page.goto('about:blank');
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const button = page.getByRole('button', { name: /details and how to fix$/ }).first();
    await button.waitFor();
    const look = await button.evaluate((element) => {
      const page = globalThis as unknown as { getComputedStyle(element: unknown): { borderTopWidth: string; borderTopStyle: string; borderTopColor: string } };
      const style = page.getComputedStyle(element);
      return { width: parseFloat(style.borderTopWidth), style: style.borderTopStyle, color: style.borderTopColor };
    });
    expect(look.width).toBeGreaterThanOrEqual(1);
    expect(look.style).toBe('solid');
    expect(look.color).not.toMatch(/^(transparent|rgba\(\d+, \d+, \d+, 0\))$/);
  });

  it('lines the "Show what applies" button up with the search box, not with its hint', async () => {
    await page.goto('about:blank');
    await page.goto(`${tab.server.base}/tab/`);
    const search = page.getByRole('search', { name: 'What applies' });
    const box = await search.getByRole('textbox').boundingBox();
    const button = await search.getByRole('button', { name: 'Show what applies' }).boundingBox();
    await saveScreenshot(page, `overview-${WIDTH}x${HEIGHT}`);
    expect(box).not.toBeNull();
    expect(button).not.toBeNull();
    // Their middles on one line, within a pixel.
    expect(Math.abs(box!.y + box!.height / 2 - (button!.y + button!.height / 2))).toBeLessThanOrEqual(1);
  });
});
