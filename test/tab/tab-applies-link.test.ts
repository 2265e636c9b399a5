import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { saveScreenshot } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);

const LINK_NAME = `Open ${APPLIES_DEMO.device} in the Intune admin center`;

/** Whether the focused element is the device's link, and whether all of it lies inside the window and the dialog's scrolling content. */
const FOCUS_STATE = `(() => {
  const active = document.activeElement;
  if (!active || active.textContent !== ${JSON.stringify(LINK_NAME)}) return { onLink: false, inView: false };
  const box = active.getBoundingClientRect();
  const content = active.closest('.fui-DialogContent').getBoundingClientRect();
  const inView = box.height > 0 && box.top >= Math.max(0, content.top) && box.bottom <= Math.min(window.innerHeight, content.bottom);
  return { onLink: true, inView };
})()`;

async function askFromOverview(page: Page): Promise<void> {
  await page.goto(`${tab.server.base}/tab/`);
  const box = page.getByRole('search', { name: 'What applies' }).getByRole('textbox');
  await box.fill(APPLIES_DEMO.device);
  await box.press('Enter');
  await expect.poll(() => page.locator('[data-applies-dialog]').getAttribute('data-phase'), { timeout: 30_000 }).toBe('found');
}

describe("the device's Intune link in a long answer", () => {
  it.each([
    [1280, 800],
    [390, 844],
  ])('at %i×%i has its height while the answer scrolls, and Tab reaches it in view', async (width, height) => {
    const page = await tab.newPage();
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await askFromOverview(page);
    const content = page.locator('[data-applies-dialog] .fui-DialogContent');
    // The demo device's answer is longer than the window: the case where the link had been squeezed to 0 px.
    const scrolls = await content.evaluate((element) => element.scrollHeight > element.clientHeight);
    expect(scrolls).toBe(true);
    const link = page.getByRole('link', { name: LINK_NAME });
    const box = await link.boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(12);
    // From the dialog itself, Tab moves through its links in order until it reaches this one.
    await page.locator('[data-applies-dialog]').focus();
    let state = { onLink: false, inView: false };
    for (let presses = 0; presses < 40 && !state.onLink; presses += 1) {
      await page.keyboard.press('Tab');
      state = (await page.evaluate(FOCUS_STATE)) as typeof state;
    }
    expect(state).toEqual({ onLink: true, inView: true });
    await saveScreenshot(page, `applies-link-${width}`);
  });
});
