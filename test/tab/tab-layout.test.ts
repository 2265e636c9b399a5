import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPORT_IDS } from '../../src/core/reports/registry.js';
import type { ReportSummary } from '../../src/core/reports/report-summary.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { paintedContrastFailures } from '../support/axe-check.js';
import { saveScreenshot } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

// The tenant's, the server's and the page's clocks are the test's, so the first screen is the same
// at any hour. 12:58 PM is the widest time of day a "Changed" cell writes (the tenant dates events
// at its own time of day).
const now = new Date('2026-11-21T12:58:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });
const tab = useTabPages(harness, { now: () => now });

const SCREENS = [
  [390, 844],
  [1280, 800],
] as const;

/**
 * What of a report's first screen the test measures, in the page: where the findings summary and the
 * first rows end, whether the history stands above the table, and every text cut short in view
 * (clipped sideways, or cut with "…" or at a line) that is neither long free text cut on purpose
 * (whole in the row's pane) nor inside something that scrolls.
 */
const FIRST_SCREEN = `(() => {
  const bottom = (element) => (element ? element.getBoundingClientRect().bottom : null);
  const findings = document.querySelector('section[aria-label=Findings]');
  const summary = findings && (findings.querySelector('ul') || findings.querySelector('[role=status]'));
  const rows = [...document.querySelectorAll('[role=table] [role=row][aria-rowindex]:not([aria-rowindex="1"])')].sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  const table = document.querySelector('[role=table]');
  const history = document.querySelector('[data-changes], svg[data-trend-points]');
  const cut = [];
  for (const element of document.querySelectorAll('[role=table] *, section[aria-label=Findings] *, h2')) {
    const box = element.getBoundingClientRect();
    // Text kept for screen readers only (a 1 px clipped box) is not text cut short.
    if (box.width <= 1 || box.height <= 1 || box.top >= innerHeight || box.bottom <= 0 || !element.textContent.trim()) continue;
    if (element.closest('[data-long-text], [data-clamped]')) continue;
    const style = getComputedStyle(element);
    if (style.overflowX === 'auto' || style.overflowX === 'scroll' || style.overflowY === 'auto') continue;
    const clipsX = style.overflowX !== 'visible' && element.scrollWidth > element.clientWidth + 1;
    const clipsY = style.overflowY !== 'visible' && element.scrollHeight > element.clientHeight + 1;
    if (clipsX || clipsY || (style.textOverflow === 'ellipsis' && element.scrollWidth > element.clientWidth + 1)) cut.push(element.textContent.trim().slice(0, 60));
  }
  return {
    summaryBottom: bottom(summary),
    firstRowsBottom: rows.slice(0, 3).map(bottom),
    historyAboveTable: !!history && history.getBoundingClientRect().height > 0 && history.getBoundingClientRect().top < table.getBoundingClientRect().top,
    cut: [...new Set(cut)],
    horizontalOverflow: document.documentElement.scrollWidth > innerWidth + 1,
  };
})()`;

interface FirstScreen {
  summaryBottom: number | null;
  firstRowsBottom: Array<number | null>;
  historyAboveTable: boolean;
  cut: string[];
  horizontalOverflow: boolean;
}

/** A page whose clock stands at the test's `now` (its timers still run). */
async function openPage(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await tab.newPageOnOwnClock({ colorScheme });
  await page.clock.setFixedTime(now);
  return page;
}

async function openReport(page: Page, id: string): Promise<void> {
  await page.goto(`${tab.server.base}/tab/#/${id}`);
  await page.locator('[role=table] [data-open-row]').first().waitFor();
  // The history line and triage log arrive after the table; measured once they have.
  await page.locator('section[aria-label=Findings] [data-triage-log]').waitFor();
}

describe('the first screen of every report, measured', () => {
  it.each(SCREENS.flatMap(([width, height]) => (['light', 'dark'] as const).map((theme) => [width, height, theme] as const)))(
    'at %ix%i in the %s theme: the findings summary and the first rows, nothing the admin decides by cut, every text legible',
    async (width, height, theme) => {
      const page = await openPage(theme);
      await page.setViewportSize({ width, height });
      const failures: string[] = [];
      for (const id of REPORT_IDS) {
        await openReport(page, id);
        const screen = (await page.evaluate(FIRST_SCREEN)) as FirstScreen;
        await saveScreenshot(page, `report-${id}-${width}-${theme}`);
        if (screen.summaryBottom === null || screen.summaryBottom > height) failures.push(`${id}: the findings summary ends at ${screen.summaryBottom}, below ${height}`);
        // At least the first row whole on a phone, the first three on a wide screen.
        const wanted = width < 600 ? 1 : 3;
        const rows = screen.firstRowsBottom.slice(0, wanted);
        if (rows.length < Math.min(wanted, 1) || rows.some((rowBottom) => rowBottom === null || rowBottom > height))
          failures.push(`${id}: first rows end at ${rows.join(', ')}, below ${height}`);
        if (screen.historyAboveTable) failures.push(`${id}: the history stands above the table`);
        if (screen.cut.length > 0) failures.push(`${id}: cut texts: ${screen.cut.join(' | ')}`);
        if (screen.horizontalOverflow) failures.push(`${id}: the page scrolls sideways`);
        for (const contrast of await paintedContrastFailures(page)) failures.push(`${id}: ${contrast}`);
        // The first row's pane too: its severities, what, why and how to fix.
        await page.locator('[data-open-row]').first().click();
        const pane = page.getByRole('dialog');
        await pane.waitFor();
        await pane.evaluate((element) => {
          const animated = element as unknown as { getAnimations(options: { subtree: boolean }): Array<{ finished: Promise<unknown> }> };
          return Promise.all(animated.getAnimations({ subtree: true }).map((animation) => animation.finished));
        });
        for (const contrast of await paintedContrastFailures(page)) failures.push(`${id}, its first row's pane: ${contrast}`);
        await page.keyboard.press('Escape');
        await pane.waitFor({ state: 'detached' });
      }
      expect(failures).toEqual([]);
    },
    // Every report's first screen and its first row's pane, measured in one page: a bound that grows with the registry.
    REPORT_IDS.length * 10_000,
  );

  it("on a phone a row shows its name and its verdicts, and the rest is in the row's pane", async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await openReport(page, 'escrow-gaps');
    const headers = await page.locator('[role=columnheader]').allTextContents();
    expect(headers[0]).toBe('Device');
    expect(headers).not.toContain('Intune');
    const phoneColumns = headers.length;
    await page.setViewportSize({ width: 1280, height: 800 });
    await expect.poll(() => page.locator('[role=columnheader]').count()).toBeGreaterThan(phoneColumns);
    // Every column of the wide table is a field of the row's pane on the phone.
    const wideHeaders = (await page.locator('[role=columnheader]').allTextContents()).filter((header) => header !== 'Findings' && header !== 'Intune');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => page.locator('[role=columnheader]').count()).toBe(phoneColumns);
    await page.locator('[data-open-row]').first().click();
    const pane = page.getByRole('dialog');
    await pane.waitFor();
    const paneText = (await pane.textContent()) ?? '';
    for (const header of wideHeaders) expect(paneText).toContain(header.replace(/ \(n\/a\)$/, ''));
  });

  it('report 6 leads with its worst: blue-screen devices before slow starters, and each chart above the table it summarizes', async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await openReport(page, 'startup-reliability');
    // The first device's pane names a High finding.
    await page.locator('section[aria-label=Devices] [data-open-row]').first().click();
    const pane = page.getByRole('dialog');
    await pane.waitFor();
    expect(await pane.textContent()).toContain('High');
    await page.keyboard.press('Escape');
    await pane.waitFor({ state: 'detached' });
    for (const [chart, table] of [
      ['Slowest models: mean power-on to desktop', 'Device models'],
      ['Applications that crash most', 'Applications'],
    ] as const) {
      const chartTop = (await page.locator('figure, [role=figure]', { hasText: chart }).first().boundingBox())!.y;
      const tableTop = (await page.locator(`section[aria-label="${table}"]`).boundingBox())!.y;
      expect(chartTop, chart).toBeLessThan(tableTop);
    }
  });
});

/** What is wrong with the overview's tiles, measured in the page. */
const TILE_PROBLEMS = `(() => {
  const found = [];
  for (const tile of document.querySelectorAll('[data-report-tile]')) {
    const id = tile.getAttribute('data-report-tile') + ': ';
    if (tile.scrollWidth > tile.clientWidth + 1) found.push(id + 'the tile overflows sideways');
    if (tile.getBoundingClientRect().right > document.documentElement.clientWidth + 1) found.push(id + 'the tile runs off the screen');
    for (const item of tile.querySelectorAll('[data-finding-kind]')) {
      const [number, label] = [...item.children].map((child) => child.getBoundingClientRect());
      if (number && label && number.right > label.left + 0.5) found.push(id + 'a count runs into its label');
      if (item.scrollWidth > item.clientWidth + 1) found.push(id + 'a kind overflows its line');
    }
    const badge = [...tile.querySelectorAll('.fui-Badge')].find((element) => element.textContent.startsWith('Worst:'));
    if (badge) {
      const lineHeight = parseFloat(getComputedStyle(badge).lineHeight) || 16;
      if (badge.getBoundingClientRect().height > lineHeight * 1.9) found.push(id + badge.textContent + ' wraps');
      if (badge.scrollWidth > badge.clientWidth + 1) found.push(id + badge.textContent + ' is clipped');
    }
    const updated = [...tile.querySelectorAll('*')].find((element) => element.children.length === 0 && /^Updated /.test(element.textContent));
    if (!updated) found.push(id + 'no "Updated" line');
    else {
      const style = getComputedStyle(updated);
      if (updated.closest('button, a, [role=button]')) found.push(id + '"Updated" is inside a control');
      if (parseFloat(style.borderTopWidth) > 0 && style.borderTopStyle !== 'none') found.push(id + '"Updated" has a border');
      if (style.backgroundColor !== 'rgba(0, 0, 0, 0)') found.push(id + '"Updated" has a background');
    }
    const buttons = tile.querySelectorAll('button').length;
    if (buttons !== 1) found.push(id + buttons + ' buttons');
  }
  return found;
})()`;

describe('overview tiles', () => {
  it.each(SCREENS)('at %ix%i hold six-digit counts and long labels, the worst severity on one line, and "Updated" as plain text', async (width, height) => {
    const page = await openPage();
    await page.setViewportSize({ width, height });
    // Counts as a large tenant has them, and a long label, in every tile.
    await page.route('**/api/reports/*/summary', async (route) => {
      const response = await route.fetch();
      const summary = (await response.json()) as ReportSummary;
      const counts = summary.counts.map((count, index) => ({
        ...count,
        count: 123_456 + index,
        label: index === 0 ? `${count.label}, and a label long enough to need a second line in any tile` : count.label,
      }));
      await route.fulfill({ response, json: { ...summary, counts, findings: counts.reduce((total, count) => total + count.count, 0), rows: 234_567 } });
    });
    await page.goto(`${tab.server.base}/tab/`);
    await expect.poll(() => page.locator('[data-report-tile][data-state=loading]').count(), { timeout: 30_000 }).toBe(0);
    await saveScreenshot(page, `overview-six-digits-${width}`);
    const problems = (await page.evaluate(TILE_PROBLEMS)) as string[];
    expect(problems).toEqual([]);
  });
});

describe('a phone once a report has history and a triage decision', () => {
  it.each(['assignment-hygiene', 'admin-approval', 'startup-reliability'] as const)(
    '%s at 390x844: the findings summary and the first row on the first screen, the trend and the triage log one tap away',
    async (id) => {
      let cacheTime = Date.now();
      const server = await tab.startServer(harness.client(), { cacheMaxAgeMs: 500, cacheClock: () => cacheTime });
      const page = await openPage();
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`${server.base}/tab/#/${id}`);
      await page.locator('[role=table] [data-open-row]').first().waitFor();
      // A decision: the first row's worst finding accepted, with a reason.
      await page.locator('[data-open-row]').first().click();
      const pane = page.getByRole('dialog');
      await pane.getByRole('button', { name: 'Accept…' }).first().click();
      await pane.getByRole('textbox').first().fill('Known and tracked elsewhere');
      await pane.getByRole('button', { name: 'Accept finding' }).click();
      await pane.locator('[data-triage=accepted]').first().waitFor();
      await page.keyboard.press('Escape');
      await pane.waitFor({ state: 'detached' });
      // A second load: the result ages, and the next visit loads again.
      cacheTime += 600;
      await page.reload();
      await page.locator('[role=table] [data-open-row]').first().waitFor();
      const history = page.locator('section[aria-label=Findings] [data-history]');
      await history.waitFor({ timeout: 20_000 });
      await page.locator('[data-triage-log="1"]').waitFor();
      const screen = (await page.evaluate(FIRST_SCREEN)) as FirstScreen;
      await saveScreenshot(page, `report-${id}-390-with-history`);
      expect(screen.summaryBottom).not.toBeNull();
      expect(screen.summaryBottom!).toBeLessThanOrEqual(844);
      expect(screen.firstRowsBottom[0] ?? Infinity).toBeLessThanOrEqual(844);
      expect(screen.historyAboveTable).toBe(false);
      expect(screen.cut).toEqual([]);
      // One tap: the trend, then the triage log.
      await history.click();
      await page.locator('section[aria-label=Findings] svg[data-trend-points]').waitFor();
      await page.keyboard.press('Escape');
      await page.locator('[data-triage-log="1"]').click();
      await page.getByRole('dialog').locator('[data-audit-entry]').first().waitFor();
      expect(await page.getByRole('dialog').textContent()).toContain('Known and tracked elsewhere');
    },
  );
});
