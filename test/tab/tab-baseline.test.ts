import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { seriousViolations } from '../support/axe-check.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);
const ACTIVE_HOURS = 'Updates - active hours from 8 (Engineering)';

describe("report 8's approved baseline in the tab", () => {
  it('shows a drifted setting, and a Triager accepts it by approving the policy as it is, by keyboard; the report then shows it matching', async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.server.base}/tab/#/baseline-drift`);
    await page.locator('[role=table]').first().waitFor();
    const row = page.getByRole('button', { name: new RegExp(`finding for ${ACTIVE_HOURS.replace(/[()]/g, '\\$&')}: details and how to fix$`) });
    await row.focus();
    await page.keyboard.press('Enter');
    const pane = page.getByRole('dialog');
    await pane.locator('[data-finding-details=setting-drifted]').waitFor();
    expect(await pane.locator('[data-finding-details=setting-drifted]').textContent()).toContain('Active Hours Start: approved 7, now 8');
    const controls = pane.locator('[data-baseline-controls]');
    expect(await seriousViolations(page)).toEqual([]);
    await controls.getByRole('button', { name: 'Approve as it is now' }).focus();
    await page.keyboard.press('Enter');
    await controls.locator('[data-baseline-outcome=success]').waitFor();
    await page.keyboard.press('Escape');

    await page.reload();
    await page.locator('[role=table]').first().waitFor();
    await expect
      .poll(async () =>
        page
          .getByRole('row', { name: new RegExp(ACTIVE_HOURS.replace(/[()]/g, '\\$&')) })
          .first()
          .textContent(),
      )
      .toContain('Matches the approved baseline');
  });
});
