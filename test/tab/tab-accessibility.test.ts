import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPORT_IDS } from '../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { seriousViolations } from '../support/axe-check.js';
import { saveScreenshot } from '../support/browser.js';
import type { PageGlobals } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);

async function openReport(id: string, theme: 'light' | 'dark' | 'contrast' = 'light'): Promise<Page> {
  const page = await tab.newPage(theme === 'contrast' ? { forcedColors: 'active' } : { colorScheme: theme });
  await page.goto(`${tab.server.base}/tab/#/${id}`);
  await page.locator(`[data-theme=${theme}]`).waitFor();
  await page.locator('[role=table]').first().waitFor();
  return page;
}

/**
 * Presses Tab until the focused element matches `selector` (and has the text `text`, if given);
 * a bounded walk, as every loop here is.
 */
async function tabUntil(page: Page, selector: string, text?: string, limit = 80): Promise<void> {
  for (let step = 0; step < limit; step += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(
      ([wanted, wantedText]) => {
        const element = (globalThis as unknown as PageGlobals).document.activeElement;
        return !!element && element.matches(wanted as string) && (wantedText === null || element.textContent?.trim() === wantedText);
      },
      [selector, text ?? null] as const,
    );
    if (focused) return;
  }
  throw new Error(`no element matching ${selector}${text ? ` with text "${text}"` : ''} within ${limit} presses of Tab`);
}

describe('accessibility', () => {
  it.each(REPORT_IDS.flatMap((id) => [[id, 'light'] as const, [id, 'dark'] as const, [id, 'contrast'] as const]))(
    '%s in %s theme: no serious or critical axe violation',
    async (id, theme) => {
      const page = await openReport(id, theme);
      expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
    },
  );

  it.each(['light', 'dark', 'contrast'] as const)("the overview and a finding's details pane in %s theme: no serious or critical axe violation", async (theme) => {
    const page = await tab.newPage(theme === 'contrast' ? { forcedColors: 'active' } : { colorScheme: theme });
    await page.goto(`${tab.server.base}/tab/`);
    await page.locator(`[data-theme=${theme}]`).waitFor();
    await page.locator('[data-report-tile]').first().waitFor();
    await expect.poll(() => page.locator('[data-report-tile][data-state=loading]').count(), { timeout: 20_000 }).toBe(0);
    expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);

    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page
      .getByRole('button', { name: /details and how to fix$/ })
      .first()
      .click();
    const pane = page.getByRole('dialog');
    await pane.waitFor();
    // Colours are judged once the pane has finished sliding in: mid-animation they are see-through.
    await pane.evaluate((element) => {
      const animated = element as unknown as { getAnimations(options: { subtree: boolean }): Array<{ finished: Promise<unknown> }> };
      return Promise.all(animated.getAnimations({ subtree: true }).map((animation) => animation.finished));
    });
    await saveScreenshot(page, `finding-details-${theme}`);
    expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
  });

  it('the error and fault states have no serious or critical axe violation either', async () => {
    const page = await tab.newPage();
    await page.route('**/api/reports/escrow-gaps/preview', (route) =>
      route.fulfill({ contentType: 'application/json', body: '{"report":"escrow-gaps","state":"loaded","columns":null}' }),
    );
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[data-state=fault]').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('keyboard', () => {
  it('reaches the navigation, moves between reports with the arrow keys and opens one', async () => {
    const page = await openReport('connector-health');
    await tabUntil(page, '[role=tab]');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).document.activeElement?.textContent)).toBe('Connectors & integrations');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.locator('h2', { hasText: 'Endpoint Security Policy Posture' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/security-posture');
  });

  it('sorts by a column, filters the rows and exports what is shown, all without a mouse', async () => {
    const page = await openReport('escrow-gaps');
    const deviceHeader = page.getByRole('columnheader', { name: 'Device' });
    expect(await deviceHeader.getAttribute('aria-sort')).toBe('none');

    await tabUntil(page, 'input[aria-label="Filter rows"]');
    await page.keyboard.type('0016');
    await page.locator('[data-shown-count="1"]').waitFor();

    await tabUntil(page, '[role=columnheader] *, [role=columnheader]', 'Device');
    await page.keyboard.press('Enter');
    expect(await deviceHeader.getAttribute('aria-sort')).toBe('ascending');
    await page.keyboard.press('Enter');
    expect(await deviceHeader.getAttribute('aria-sort')).toBe('descending');

    await page.getByRole('searchbox', { name: 'Filter rows' }).focus();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('missing');
    await tabUntil(page, 'button', 'Export CSV');
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const shown = Number(await page.locator('[data-shown-count]').getAttribute('data-shown-count'));
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Device,User,Last check-in,Recovery key,LAPS password,Note,Findings,Severity,Detail,Link');
    expect(lines.length - 1).toBe(shown);
    const devices = lines.slice(1).map((line) => line.split(',')[0]!);
    expect(devices).toEqual([...devices].sort((a, b) => b.localeCompare(a)));
  });

  it('every row link names its device and opens the Intune admin center', async () => {
    const page = await openReport('escrow-gaps');
    const link = page.getByRole('link', { name: /^Open CONTOSO-\d+ in the Intune admin center$/ }).first();
    expect(await link.getAttribute('href')).toMatch(/^https:\/\/intune\.microsoft\.com\/#view\/Microsoft_Intune_Devices\/DeviceSettingsMenuBlade\/~\/overview\/mdmDeviceId\//);
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('Reload is reachable and works from the keyboard', async () => {
    const page = await tab.newPage();
    await page.route('**/api/reports/startup-reliability/preview', (route) =>
      route.fulfill({ contentType: 'application/json', body: '{"report":"startup-reliability","state":"loaded","columns":null}' }),
    );
    await page.goto(`${tab.server.base}/tab/#/startup-reliability`);
    await page.locator('[data-state=fault]').waitFor();
    await page.unroute('**/api/reports/startup-reliability/preview');
    await tabUntil(page, 'button', 'Reload');
    await page.keyboard.press('Enter');
    await page.locator('[role=table]').first().waitFor();
  });
});

describe('every screen, from a phone to a desktop', () => {
  const viewports = [
    [1366, 768],
    [768, 1024],
    [390, 844],
  ] as const;
  it.each(viewports.flatMap(([width, height]) => (['light', 'dark', 'contrast'] as const).map((theme) => [width, height, theme] as const)))(
    '%ix%i in %s: no sideways page, the device column in view after a sideways scroll, the demo badge whole, axe clean',
    async (width, height, theme) => {
      const page = await tab.newPage(theme === 'contrast' ? { forcedColors: 'active' } : { colorScheme: theme });
      await page.setViewportSize({ width, height });
      await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
      await page.locator(`[data-theme=${theme}]`).waitFor();
      await page.locator('[role=table]').first().waitFor();
      const fits = await page.evaluate(() => {
        const { document } = globalThis as unknown as {
          document: { documentElement: { scrollWidth: number; clientWidth: number }; querySelector(s: string): { scrollWidth: number; clientWidth: number } | null };
        };
        const badge = document.querySelector('[data-demo-tenant]');
        return { page: document.documentElement.scrollWidth <= document.documentElement.clientWidth, badge: !badge || badge.scrollWidth <= badge.clientWidth };
      });
      expect(fits).toEqual({ page: true, badge: true });

      // Sideways, as far as the table goes: the first cell of a row still shows its device.
      const region = page.getByRole('region', { name: /rows$/ }).first();
      await region.evaluate((element) => {
        (element as unknown as { scrollLeft: number; scrollWidth: number }).scrollLeft = (element as unknown as { scrollWidth: number }).scrollWidth;
      });
      const regionBox = (await region.boundingBox())!;
      const pinned = page.locator('[role=row][aria-rowindex="2"] [data-pinned]');
      const pinnedBox = (await pinned.boundingBox())!;
      expect(pinnedBox.x).toBeGreaterThanOrEqual(regionBox.x - 1);
      expect(pinnedBox.x + pinnedBox.width).toBeLessThanOrEqual(regionBox.x + regionBox.width + 1);
      expect(await pinned.textContent()).toMatch(/^CONTOSO-\d{4}$/);
      await saveScreenshot(page, `escrow-gaps-${width}x${height}-${theme}`);
      expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
    },
  );
});
