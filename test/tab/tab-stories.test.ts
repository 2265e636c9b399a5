import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { saveScreenshot } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

/**
 * A finding's story in the tab (docs/finding-rules.md, "A finding's last change"): the finding
 * pane lists the object's recent changes from Intune's audit log, and the table sorts by when the
 * object last changed.
 */
const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);

describe("a finding's story in the tab", () => {
  it('the finding pane shows who changed the object, when, what, and the property that changed; a failed attempt is not among them', async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.server.base}/tab/#/security-posture`);
    await page.locator('[role=table]').first().waitFor();
    await page
      .getByRole('button', { name: /findings? for Firewall - Branch offices \(policy set\): details and how to fix$/ })
      .first()
      .click();
    const pane = page.getByRole('dialog');
    const changes = pane.locator('[data-recent-changes]');
    await changes.waitFor();
    const items = await changes.locator('[data-change]').allTextContents();
    expect(items).toHaveLength(2);
    expect(items[0]).toContain('dana.lopez@contoso-demo.example');
    expect(items[0]).toContain('Patch DeviceManagementConfigurationPolicy');
    // The option ids the log holds, named as the row names them (docs/finding-rules.md, "Settings as the admin center names them").
    expect(items[0]).toContain('True → False');
    expect(items[1]).toContain('alex.wilber@contoso-demo.example');
    expect(items.join(' ')).not.toContain('megan.bowen');
    await saveScreenshot(page, 'finding-recent-changes');
  });

  it('the table sorts by when the object last changed, newest first on the second press', async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.server.base}/tab/#/security-posture`);
    await page.locator('[role=table]').first().waitFor();
    const header = page.getByRole('columnheader', { name: 'Changed' });
    await header.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('ascending');
    await header.click();
    await expect.poll(() => header.getAttribute('aria-sort')).toBe('descending');
    const first = await page.locator('[role=row][aria-rowindex="2"] [data-open-row]').first().textContent();
    // Three objects were last changed 12 days ago; the newest changes come first, never a row with none.
    expect(['ASR - Standard protection', 'Firewall - Corporate', 'Firewall - Branch offices (policy set)']).toContain(first);
  });
});
