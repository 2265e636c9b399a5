import { describe, expect, it } from 'vitest';
import { DEMO_CHANGES } from '../../src/core/changes/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { seriousViolations } from '../support/axe-check.js';
import { saveScreenshot } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);
const byMegan = DEMO_CHANGES.filter((change) => 'user' in change.by && change.by.user.startsWith('megan')).map((change) => change.object);

describe('what changed, in the tab', () => {
  it('lists the week newest first, each setting by name, and narrows to one person from the keyboard', async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.server.base}/tab/#/changes`);
    await page.locator(`[data-changes-count="${DEMO_CHANGES.length}"]`).waitFor();
    const headings = await page.getByRole('list', { name: 'Changes' }).getByRole('heading').allTextContents();
    expect(headings[0]).toBe('Changed: Firewall - Datacenter');
    expect(headings).toHaveLength(DEMO_CHANGES.length);
    const first = page.locator('[data-change]').first();
    expect(await first.textContent()).toContain('Enable Domain Network Firewall: True → False');
    expect(await first.getByRole('link').getAttribute('href')).toMatch(/^https:\/\/intune\.microsoft\.com\/#view\//);

    await page.getByLabel('Changed by').focus();
    await page.keyboard.type('megan');
    await page.locator(`[data-changes-count="${byMegan.length}"]`).waitFor();
    expect((await page.getByRole('list', { name: 'Changes' }).getByRole('heading').allTextContents()).map((text) => text.replace(/^[^:]+: /, ''))).toEqual(byMegan);
  });

  it.each(['light', 'dark', 'contrast'] as const)('reads well in the %s theme, with nothing axe calls serious', async (theme) => {
    const page = await tab.newPage(theme === 'contrast' ? { forcedColors: 'active' } : { colorScheme: theme });
    await page.goto(`${tab.server.base}/tab/#/changes`);
    await page.locator(`[data-changes-count="${DEMO_CHANGES.length}"]`).waitFor();
    expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
    await saveScreenshot(page, `changes-${theme}`);
  });
});
