import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { saveScreenshot } from '../support/browser.js';
import { ALL_REPORT_ROLES, useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const now = new Date();
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });
const tab = useTabPages(harness, { now: () => now });

/** A server reading Graph as an app registration holding exactly `roles`. */
function serverWithRoles(roles: readonly string[]): Promise<TabServer> {
  const app = harness.sim.addApplication({ roles });
  return tab.startServer(harness.client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } }));
}

/** Where an element's top is, against the viewport's height: on the first screen when it is inside it. */
async function topWithin(page: Page, selector: string): Promise<{ top: number; height: number }> {
  const box = await page.locator(selector).first().boundingBox();
  return { top: box!.y, height: page.viewportSize()!.height };
}

/** The computed background colour of the first element `selector` matches. */
function background(page: Page, selector: string): Promise<string> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => element.ownerDocument.defaultView!.getComputedStyle(element).backgroundColor);
}

describe('a check that did not run', () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('report 4 without BitlockerKey.ReadBasic.All says so where its findings are, on the first screen at %i×%i, and the tile says why', async (width, height) => {
    const server = await serverWithRoles(ALL_REPORT_ROLES.filter((role) => role !== 'BitlockerKey.ReadBasic.All'));
    const page = await tab.newPage();
    await page.setViewportSize({ width, height });

    await page.goto(`${server.base}/tab/#/escrow-gaps`);
    const notice = page.locator('[aria-label=Findings] [data-state=not-checked]');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('Not checked: 2 checks, up to High.');
    expect(await notice.textContent()).toContain('BitlockerKey.ReadBasic.All');
    if (width < 600) {
      // On a phone the checks' list is one tap away, so the table's first row stays on the first screen.
      const firstRow = page.locator('[role=table] [role=row][aria-rowindex]:not([aria-rowindex="1"])').first();
      await firstRow.waitFor();
      const rowAt = await topWithin(page, '[role=table] [role=row][aria-rowindex]:not([aria-rowindex="1"])');
      expect(rowAt.top + (await firstRow.boundingBox())!.height).toBeLessThanOrEqual(rowAt.height);
      expect(await notice.textContent()).not.toContain('Devices without an escrowed BitLocker key');
      await notice.getByRole('button', { name: 'Which checks' }).click();
    }
    expect(await notice.textContent()).toContain('Devices without an escrowed BitLocker key (High)');
    // A High check that did not run is not shown as a mild warning, let alone as good news.
    expect(await notice.getAttribute('data-not-checked-worst')).toBe('high');
    expect(await background(page, '[aria-label=Findings] [data-state=not-checked]')).not.toBe(await background(page, 'article'));
    // Measured, not eyeballed: the notice and the findings it qualifies both start on the first screen.
    const at = await topWithin(page, '[aria-label=Findings] [data-state=not-checked]');
    expect(at.top).toBeGreaterThanOrEqual(0);
    expect(at.top).toBeLessThan(at.height);
    const summaryAt = await topWithin(page, '[aria-label="Open findings by kind, worst first"]');
    expect(summaryAt.top).toBeGreaterThan(at.top);
    await saveScreenshot(page, `not-checked-escrow-gaps-${width}`);

    await page.goto(`${server.base}/tab/#/`);
    const tile = page.locator('[data-report-tile=escrow-gaps][data-state=loaded]');
    await tile.waitFor();
    const tileNotice = tile.locator('[data-state=not-checked]');
    expect(await tileNotice.textContent()).toContain('Not checked: 2 checks, up to High. Needs BitlockerKey.ReadBasic.All, not granted.');
    // The notice stays inside its tile at every width.
    const fits = await tileNotice.evaluate((element) => element.scrollWidth <= element.clientWidth + 1);
    expect(fits).toBe(true);
    await saveScreenshot(page, `not-checked-overview-${width}`);
  });
});

describe('a source that errors', () => {
  it('says it is retrying (attempt, wait) in the progress, and a failed load says when it failed', async () => {
    // Two 503s that each ask for a wait, then answers: the load goes on, and the viewer sees why it waits.
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance', status: 503, retryAfterSeconds: 3, times: 2 });
    harness.sim.faults.add({ path: '/beta/deviceManagement/operationApprovalPolicies', status: 403 });
    const server = await tab.startServer(harness.client());
    const page = await tab.newPage();
    await page.goto(`${server.base}/tab/#/startup-reliability`);
    const retrying = page.locator('[data-progress]', { hasText: /userExperienceAnalyticsDevicePerformance: 0 records, Graph answered 503; retrying, attempt [23] (in \d+ s|now)/ });
    await retrying.waitFor();
    await saveScreenshot(page, 'retrying-startup-reliability');
    await page.locator('[aria-label=Findings]').waitFor({ timeout: 30_000 });

    await page.goto(`${server.base}/tab/#/`);
    const failed = page.locator('[data-report-tile=admin-approval][data-state=load-error]');
    await failed.waitFor();
    const text = (await failed.textContent()) ?? '';
    expect(text).toMatch(/Failed (now|\d+ seconds? ago)/);
    expect(text).not.toMatch(/Read (now|\d)/);
  });
});
