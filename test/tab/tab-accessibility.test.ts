import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPORT_IDS } from '../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { AXE_SCRIPT_PATH, saveScreenshot } from '../support/browser.js';
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
 * Text whose contrast with what is behind it falls short of WCAG AA (4.5:1, 3:1 for large text), as
 * the browser paints it in forced colours: computed colours, which forced colours replace. axe's own
 * check reads the unforced text colour against the forced background there (dequelabs/axe-core#3978),
 * so in forced colours this check stands in for it. Evaluated as source text: it runs in the page.
 */
const FORCED_CONTRAST_FAILURES = `(() => {
  const parse = (value) => (value.match(/[\\d.]+/g) || []).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const probe = document.createElement('div');
  probe.style.background = 'Canvas';
  document.body.append(probe);
  const canvas = parse(getComputedStyle(probe).backgroundColor);
  probe.remove();
  const backgroundOf = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const color = parse(getComputedStyle(node).backgroundColor);
      if (color.length === 3 || (color.length === 4 && color[3] > 0.5)) return color.slice(0, 3);
    }
    return canvas;
  };
  const failures = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(), seen = 0; text && seen < 20000; text = walker.nextNode(), seen++) {
    const element = text.parentElement;
    if (!text.textContent.trim() || !element || !element.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
    const style = getComputedStyle(element);
    // SVG text is painted with its fill, not its colour.
    const painted = element instanceof SVGElement ? style.fill : style.color;
    if (!painted.startsWith('rgb')) continue;
    const [lighter, darker] = [luminance(parse(painted)), luminance(backgroundOf(element))].sort((a, b) => b - a);
    const ratio = (lighter + 0.05) / (darker + 0.05);
    const large = parseFloat(style.fontSize) >= 24 || (parseFloat(style.fontSize) >= 18.66 && Number(style.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) failures.push('forced-colour contrast ' + ratio.toFixed(2) + ' (' + painted + ' on ' + backgroundOf(element).join(',') + ') at ' + element.tagName + ': ' + text.textContent.trim().slice(0, 40));
  }
  return [...new Set(failures)].slice(0, 10);
})()`;

async function seriousViolations(page: Page, options: { forcedColors?: boolean } = {}): Promise<string[]> {
  // Evaluated over the DevTools protocol: the tab's Content-Security-Policy rightly refuses a script tag.
  await page.evaluate(readFileSync(AXE_SCRIPT_PATH, 'utf8'));
  const forced = options.forcedColors ?? false;
  const violations = await page.evaluate(async (forcedColors) => {
    const { axe, document } = globalThis as unknown as PageGlobals;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      // See FORCED_CONTRAST_FAILURES: in forced colours contrast is checked on what is painted.
      ...(forcedColors ? { rules: { 'color-contrast': { enabled: false } } } : {}),
    });
    // Fluent's focus manager (tabster) puts focusable, aria-hidden <i data-tabster-dummy> bumpers
    // around focus groups on purpose: they hand focus on at once and must stay silent to screen
    // readers. A known false positive of aria-hidden-focus (microsoft/tabster#288), suppressed the
    // same way Accessibility Insights suppresses it: for those elements and that rule only.
    const isTabsterBumper = (target: string[]) => target.length === 1 && document.querySelector(target[0]!)?.hasAttribute('data-tabster-dummy') === true;
    return result.violations
      .map((violation) => (violation.id === 'aria-hidden-focus' ? { ...violation, nodes: violation.nodes.filter((node) => !isTabsterBumper(node.target)) } : violation))
      .filter((violation) => violation.nodes.length > 0);
  }, forced);
  const contrast = forced ? ((await page.evaluate(FORCED_CONTRAST_FAILURES)) as string[]) : [];
  return contrast.concat(
    violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) =>
          `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes
            .map((node) => node.target.join(' '))
            .slice(0, 3)
            .join(', ')}`,
      ),
  );
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
