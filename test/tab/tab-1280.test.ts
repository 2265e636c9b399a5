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
