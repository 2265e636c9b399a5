import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ACTIVE_HOURS_START, ONBOARDING, SECRET_TOKENS } from '../../src/core/reports/setting-conflicts/demo.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { paintedContrastFailures, seriousViolations } from '../support/axe-check.js';
import { saveScreenshot } from '../support/browser.js';
import type { PageGlobals } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);

/** Two policies set Active Hours Start, 8 and 9, for two groups that share two users: a conflict of exactly two. */
const PAIR = ['Updates - active hours from 8 (Engineering)', 'Updates - active hours from 9 (Engineering leads)'] as const;
const policyId = (name: string) => harness.sim.tenant.collections.configurationPolicies.find((item) => item.name === name)!.id;

/** Opens report 7 and the pane of the row named `setting`, from its findings button, by keyboard. */
async function openConflict(page: Page, setting: string): Promise<Locator> {
  await page.goto(`${tab.server.base}/tab/#/setting-conflicts`);
  await page.locator('[role=table]').first().waitFor();
  const button = page.getByRole('button', { name: new RegExp(`for ${setting}: details and how to fix$`) });
  await button.focus();
  await page.keyboard.press('Enter');
  const pane = page.getByRole('dialog', { name: 'Finding details' });
  await pane.waitFor();
  // The pane slides in from the side: its cards are measured once every animation that ends has
  // ended (a spinner's, which never does, is left out).
  await page.evaluate(() =>
    Promise.all(
      (globalThis as unknown as PageGlobals).document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished),
    ),
  );
  return pane.locator('[data-conflict-sides]');
}

async function cardsOf(section: Locator): Promise<Array<{ name: string; value: string; box: { x: number; y: number; width: number; height: number } }>> {
  const cards = section.locator('[data-conflict-side]');
  const found = [];
  for (const card of await cards.all()) {
    const box = await card.boundingBox();
    if (!box) throw new Error('a card is not drawn');
    found.push({ name: (await card.locator('[data-conflict-policy]').textContent()) ?? '', value: (await card.locator('[data-conflict-value]').textContent()) ?? '', box });
  }
  return found;
}

describe("a setting conflict's pane: its policies side by side", () => {
  it('names the setting and its id, the verdict and overlap, then each policy beside the other with its value and its Intune page; keyboard reaches the links', async () => {
    const page = await tab.newPage();
    const section = await openConflict(page, 'Active Hours Start');
    expect(await section.locator('[data-conflict-setting]').textContent()).toBe('Active Hours Start');
    expect(await section.locator('[data-conflict-setting-id]').textContent()).toBe(`Setting id ${ACTIVE_HOURS_START}`);
    expect(await section.locator('[data-conflict-verdict]').textContent()).toBe('Conflict');
    expect(await section.locator('[data-conflict-verdict]').getAttribute('data-tone')).toBe('warning');
    expect(await section.locator('[data-conflict-overlap]').textContent()).toBe('Both reach 2 users');

    const cards = await cardsOf(section);
    expect(cards.map(({ name, value }) => ({ name, value }))).toEqual([
      { name: PAIR[0], value: '8' },
      { name: PAIR[1], value: '9' },
    ]);
    // Side by side: one row, the second to the right of the first.
    expect(Math.abs(cards[0]!.box.y - cards[1]!.box.y)).toBeLessThan(1);
    expect(cards[1]!.box.x).toBeGreaterThanOrEqual(cards[0]!.box.x + cards[0]!.box.width);
    // Two policies: both are the pair the verdict is about, which needs no saying.
    expect(await section.locator('[data-decides]').count()).toBe(2);
    expect(await section.textContent()).not.toContain('the verdict is about');

    for (const name of PAIR) {
      const link = section.getByRole('link', { name: `${name}, open in the Intune admin center` });
      expect(await link.getAttribute('href')).toContain(`https://intune.microsoft.com/#view/Microsoft_Intune_Workflows/PolicySummaryBlade/policyId/${policyId(name)}/`);
      expect(await link.getAttribute('target')).toBe('_blank');
    }
    // From the pane's first control, Tab reaches the first policy's link, then the second's.
    const focused = () =>
      page.evaluate(
        () =>
          (globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }).document.activeElement?.getAttribute('aria-label') ?? '',
      );
    let steps = 0;
    while (!(await focused()).startsWith(PAIR[0]) && steps < 5) {
      await page.keyboard.press('Tab');
      steps += 1;
    }
    expect(await focused()).toBe(`${PAIR[0]}, open in the Intune admin center`);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(`${PAIR[1]}, open in the Intune admin center`);
    await saveScreenshot(page, 'conflict-sides');
  });

  it('marks, among three policies, the two the verdict is about, in words and not by colour alone', async () => {
    const page = await tab.newPage();
    const section = await openConflict(page, 'Enable Private Network Firewall');
    const cards = await cardsOf(section);
    expect(cards.map(({ name, value }) => ({ name, value }))).toEqual([
      { name: 'Firewall - Branch offices (policy set)', value: 'False' },
      { name: 'Firewall - Corporate', value: 'True' },
      { name: 'Firewall - Datacenter', value: 'True' },
    ]);
    const deciding = section.locator('[data-conflict-side][data-decides]');
    expect(await deciding.locator('[data-conflict-policy]').allTextContents()).toEqual(['Firewall - Branch offices (policy set)', 'Firewall - Datacenter']);
    for (const text of await deciding.allTextContents()) expect(text).toContain('One of the two policies the verdict is about');
    // The third says why it is not one of the two, from its value: it sets what one of them sets.
    const other = section.locator('[data-conflict-side]:not([data-decides])');
    expect(await other.locator('[data-conflict-not-deciding]').textContent()).toBe('Sets the same value as “Firewall - Datacenter”, one of the two the verdict is about');
    expect(await section.locator('[data-conflict-not-deciding]').count()).toBe(1);
    expect(await section.locator('[data-conflict-verdict]').textContent()).toBe('Possible conflict');
  });

  it('says after the rows, and on the overview tile, how many predicted conflicts devices confirmed and which reported ones were not predicted', async () => {
    const page = await tab.newPage();
    const line = '1 of 2 predicted conflicts between configuration profiles confirmed by devices; 1 reported that was not predicted';
    await page.goto(`${tab.server.base}/tab/#/setting-conflicts`);
    await page.locator('[role=table]').first().waitFor();
    expect(await page.locator('[data-headline]').textContent()).toContain(line);
    await page.goto(`${tab.server.base}/tab/#/`);
    const tile = page.locator('li', { has: page.getByText('Setting Conflicts', { exact: true }) });
    await tile.locator('[data-headline]').waitFor();
    expect(await tile.locator('[data-headline]').textContent()).toContain(line);
  });

  it('shows a secret only as set, never a value or the token Graph gives for it', async () => {
    const page = await tab.newPage();
    // The name is matched as a pattern, its brackets escaped.
    const section = await openConflict(page, 'Onboarding \\(Device\\)');
    // Named by its definition, its id beside the name.
    expect(await section.locator('[data-conflict-setting-id]').textContent()).toBe(`Setting id ${ONBOARDING}`);
    const cards = await cardsOf(section);
    expect(cards.map((card) => card.value)).toEqual(['set (secret)', 'set (secret)']);
    const text = (await page.getByRole('dialog').textContent()) ?? '';
    for (const token of SECRET_TOKENS) expect(text).not.toContain(token);
  });

  it('stacks the policies one above the other on a phone, within the screen', async () => {
    const page = await tab.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const section = await openConflict(page, 'Active Hours Start');
    const cards = await cardsOf(section);
    expect(cards).toHaveLength(2);
    expect(cards[1]!.box.y).toBeGreaterThanOrEqual(cards[0]!.box.y + cards[0]!.box.height);
    for (const { box } of cards) {
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    await saveScreenshot(page, 'conflict-sides-phone');
  });

  for (const theme of ['dark', 'contrast'] as const) {
    it(`reads in the ${theme === 'dark' ? 'dark' : 'high-contrast'} theme: no serious accessibility violation and every text readable in the open pane`, async () => {
      const page = await tab.newPage(theme === 'dark' ? { colorScheme: 'dark' } : { forcedColors: 'active' });
      const section = await openConflict(page, 'Active Hours Start');
      await page.locator(`[data-theme=${theme}]`).waitFor();
      expect(await section.locator('[data-conflict-side]').count()).toBe(2);
      // Colours are judged once the pane has finished sliding in: mid-animation they are see-through.
      await page.getByRole('dialog').evaluate((element) => {
        const animated = element as unknown as { getAnimations(options: { subtree: boolean }): Array<{ finished: Promise<unknown> }> };
        return Promise.all(animated.getAnimations({ subtree: true }).map((animation) => animation.finished));
      });
      await saveScreenshot(page, `conflict-sides-${theme}`);
      expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
      expect(await paintedContrastFailures(page)).toEqual([]);
    });
  }
});
