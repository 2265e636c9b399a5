import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);

/** What has the keyboard's focus: the search box, the dialog, the page's body, or anything else by its tag. */
const FOCUSED = `(() => {
  const active = document.activeElement;
  if (!active || active === document.body) return 'body';
  if (active.closest('[data-applies-dialog]')) return 'dialog';
  if (active.closest('[role=search]') && active.tagName === 'INPUT') return 'search box';
  return active.tagName.toLowerCase();
})()`;
const focused = (page: Page) => page.evaluate(FOCUSED) as Promise<string>;

describe('what applies, by keyboard only', () => {
  // The first question reads every assignment and group (seconds on a busy machine); asked once
  // before the test, so that each round of the test is the dialog's, not the tenant's first read.
  beforeAll(async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.server.base}/tab/`);
    const box = page.getByRole('search', { name: 'What applies' }).getByRole('textbox');
    await box.fill(APPLIES_DEMO.device);
    await box.press('Enter');
    await page.locator('[data-applies-dialog][data-phase=found]').waitFor({ timeout: 0 });
    await page.close();
  }, 120_000);

  it('opens with Enter and closes with Escape, four times over, and each close gives the focus back to the search box', async () => {
    const page = await tab.newPage();
    // The dialog's opening and closing animations are part of no round: a busy machine drew each one slowly.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(`${tab.server.base}/tab/`);
    const box = page.getByRole('search', { name: 'What applies' }).getByRole('textbox');
    await box.waitFor();
    await box.focus();
    await page.keyboard.type(APPLIES_DEMO.device);
    const dialog = page.locator('[data-applies-dialog]');
    for (let round = 1; round <= 4; round += 1) {
      await page.keyboard.press('Enter');
      await dialog.waitFor();
      await expect.poll(() => focused(page), { message: `round ${round}: the focus moves into the dialog` }).toBe('dialog');
      // Once answered, Escape closes it again.
      await expect.poll(() => dialog.getAttribute('data-phase')).toBe('found');
      // The answer replaced the spinner, and the focus did not fall out of the dialog with it.
      await expect.poll(() => focused(page), { message: `round ${round}: the focus stays in the dialog once answered` }).toBe('dialog');
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await expect.poll(() => focused(page), { message: `round ${round}: the focus is back in the search box` }).toBe('search box');
    }
  });
});
