import type { Page } from 'playwright-core';
import { request } from 'undici';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { describe, expect, it } from 'vitest';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { withDenied } from '../../src/server/demo-switches.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { seriousViolations } from '../support/axe-check.js';
import { saveScreenshot } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { holdRequests, useTabPages } from '../support/tab-server.js';

// As `npm start -- --deny Device.Read.All` runs the demo: device groups unknown, the permission named, and so a possible conflict.
const harness = useTestSimulator({ tenant: withDenied(buildDemoTenant(), ['Device.Read.All']) });
const tab = useTabPages(harness);

/** Asks from the overview's search box, by keyboard. */
async function askFromOverview(page: Page, query: string): Promise<void> {
  await page.goto(`${tab.server.base}/tab/`);
  const box = page.getByRole('search', { name: 'What applies' }).getByRole('textbox');
  await box.waitFor();
  await box.fill(query);
  await box.press('Enter');
  await page.locator('[data-applies-dialog]').waitFor();
}

const phase = (page: Page) => page.locator('[data-applies-dialog]').getAttribute('data-phase');

describe('what applies in the tab', () => {
  it('answers from the overview: grouped by type, each path in words, links to Intune, the undecided apart with why', async () => {
    const page = await tab.newPage();
    await askFromOverview(page, APPLIES_DEMO.device);
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('found');
    const dialog = page.locator('[data-applies-dialog]');
    expect(await dialog.locator('h3').first().textContent()).toContain(`What applies to device ${APPLIES_DEMO.device}`);
    expect(await dialog.locator('[data-applies-type="Configuration profiles"] h4').textContent()).toMatch(/^Configuration profiles \(\d+\)$/);
    const text = (await dialog.textContent()) ?? '';
    expect(text).toContain(APPLIES_DEMO.chain.join(' → '));
    expect(text).toContain(`Excluded: ${APPLIES_DEMO.exclusion.join(' → ')}`);
    expect(text).toMatch(/include filter .+ lets it in/);
    expect(await dialog.locator('[data-applies-entry] a[href^="https://intune.microsoft.com/"]').count()).toBeGreaterThan(0);
    // What could not be decided is collapsed, and opens by keyboard to say which group and why.
    // Device groups, which this app may not read (Device.Read.All), and an exclusion group whose membership is hidden.
    const undecided = dialog.getByRole('button', { name: /^Could not be decided \(\d+\)$/ });
    await undecided.focus();
    await page.keyboard.press('Enter');
    const reasons = (await dialog.locator('[data-applies-reason]').allTextContents()).join('\n');
    expect(reasons).toContain(`Assigned to ${APPLIES_DEMO.unreadable}, whose membership could not be told`);
    expect(reasons).toContain('Member.Read.Hidden');
    await saveScreenshot(page, 'applies-overview');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it("lists the device's setting conflicts in a section of their own, in plain English, the duplicates and merged settings opened by keyboard", async () => {
    const page = await tab.newPage();
    await askFromOverview(page, APPLIES_DEMO.device);
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('found');
    const section = page.getByRole('region', { name: 'Setting conflicts' });
    expect(await section.getAttribute('data-applies-conflicts')).toBe('checked');
    expect(await section.textContent()).toContain('1 setting in conflict, 1 possible conflict, 0 duplicates and 2 merged settings.');
    const conflict = section.locator('[data-applies-conflict="conflict"]');
    expect(await conflict.count()).toBe(1);
    const camera = (await conflict.textContent()) ?? '';
    expect(camera).toContain('Allow Camera');
    expect(camera).toContain('Applied: Neither value. Intune reports a conflict and applies neither setting');
    expect(camera).toContain('Devices - camera allowed (applies): Allowed.');
    expect(camera).toContain('Devices - camera blocked (meeting rooms) (applies): Not allowed.');
    const possible = (await section.locator('[data-applies-conflict="possibleConflict"]').textContent()) ?? '';
    expect(possible).toContain('Firewall - Branch offices (policy set) (could not be decided): False');
    expect(possible).toContain('whether "Firewall - Branch offices (policy set)" applies could not be decided');
    // Each policy is a link to Intune, reached by Tab.
    const link = conflict.getByRole('link', { name: 'Devices - camera allowed' });
    expect(await link.getAttribute('href')).toMatch(/^https:\/\/intune\.microsoft\.com\//);
    await link.focus();
    expect(await page.locator('[data-applies-dialog] :focus').textContent()).toBe('Devices - camera allowed');
    // The next Tab goes on to the other policy's link.
    await page.keyboard.press('Tab');
    expect(await page.locator('[data-applies-dialog] :focus').textContent()).toBe('Devices - camera blocked (meeting rooms)');
    // The merged Defender exclusions are folded, and open with Enter.
    expect(await section.locator('[data-applies-conflict="merged"]').count()).toBe(0);
    // With them, the two firewall rule policies' rules, which Intune merges too.
    const folded = section.getByRole('button', { name: 'Duplicates and merged settings (2)' });
    await folded.focus();
    await page.keyboard.press('Enter');
    expect(await section.locator('[data-applies-conflict="merged"]').count()).toBe(2);
    expect(await section.locator('[data-applies-conflict="merged"]').allTextContents()).toContainEqual(
      expect.stringContaining('Applied: All of them, merged into one list: C:\\Build; C:\\LOB.'),
    );
    expect(await seriousViolations(page)).toEqual([]);
    await section.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'applies-conflicts');
  });

  it("says in the conflicts section when a device's conflicts could not be checked, and why", async () => {
    const page = await tab.newPage();
    // The server's answer for the demo device as it is when report 3's records cannot be read (the
    // service's own tests make that read fail: test/app/applies-conflicts.test.ts).
    const bearer = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE], username: 'alex.wilber@contoso.example', name: 'Alex Wilber' });
    const found = (await (await request(`${tab.server.base}/api/applies?q=${APPLIES_DEMO.device}`, { headers: { authorization: `Bearer ${bearer}` } })).body.json()) as {
      answer: Record<string, unknown>;
    };
    const words = 'Setting conflicts could not be checked: the settings of the policies could not be read (Graph answered 403). That is not "no conflicts".';
    await page.route('**/api/applies?q=UNREAD', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ ...found, answer: { ...found.answer, conflicts: { state: 'unread', words } } }) }),
    );
    await askFromOverview(page, 'UNREAD');
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('found');
    const section = page.getByRole('region', { name: 'Setting conflicts' });
    expect(await section.getAttribute('data-applies-conflicts')).toBe('unread');
    expect(await section.textContent()).toBe(`Setting conflicts${words}`);
    expect(await section.locator('[data-applies-conflict]').count()).toBe(0);
  });

  it('opens from a report 4 device row', async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[role=table]').first().waitFor();
    await page
      .getByRole('button', { name: /details and how to fix$/ })
      .first()
      .click();
    const pane = page.getByRole('dialog');
    const ask = pane.locator('[data-what-applies]');
    const device = ((await ask.textContent()) ?? '').replace(/^What applies to /, '');
    expect(device).not.toBe('');
    await ask.click();
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('found');
    expect(await page.locator('[data-applies-dialog] h3').first().textContent()).toContain(`What applies to device ${device}`);
  });

  it('lists the candidates of an ambiguous name, and answers the one picked', async () => {
    const page = await tab.newPage();
    // The demo tenant names each device once; two devices of one name are answered here as the
    // server answers them (the service's own tests plant them), one of them the demo's device.
    const bearer = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE], username: 'alex.wilber@contoso.example', name: 'Alex Wilber' });
    const found = await request(`${tab.server.base}/api/applies?q=${APPLIES_DEMO.device}`, { headers: { authorization: `Bearer ${bearer}` } });
    const deviceId = ((await found.body.json()) as { answer: { subject: { id: string } } }).answer.subject.id;
    await page.route('**/api/applies?q=TWIN', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          kind: 'ambiguous',
          query: 'TWIN',
          candidates: [
            { kind: 'device', id: deviceId, name: 'TWIN', detail: 'primary user user40@contoso-demo.example' },
            { kind: 'device', id: 'no-such-device-id', name: 'TWIN', detail: 'no primary user' },
          ],
          more: 0,
          words: 'Two managed devices are called "TWIN".',
          requests: 0,
        }),
      }),
    );
    await askFromOverview(page, 'TWIN');
    await expect.poll(() => phase(page)).toBe('ambiguous');
    const candidates = page.getByRole('list', { name: 'Candidates' }).getByRole('button');
    expect(await candidates.count()).toBe(2);
    await candidates.first().focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('found');
    expect(await page.locator('[data-applies-dialog] h3').first().textContent()).toContain(`What applies to device ${APPLIES_DEMO.device}`);
  });

  it.each(['dark', 'contrast'] as const)('reads in the %s theme with no serious or critical axe violation, the undecided open', async (theme) => {
    const page = await tab.newPage(theme === 'contrast' ? { forcedColors: 'active' } : { colorScheme: theme });
    await page.goto(`${tab.server.base}/tab/`);
    await page.locator(`[data-theme=${theme}]`).waitFor();
    const box = page.getByRole('search', { name: 'What applies' }).getByRole('textbox');
    await box.fill(APPLIES_DEMO.device);
    await box.press('Enter');
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('found');
    await page.getByRole('button', { name: /^Could not be decided/ }).click();
    await page.locator('[data-applies-reason]').first().waitFor();
    expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
    await saveScreenshot(page, `applies-${theme}`);
  });

  it('keeps a question asked while the app is still starting, and answers it once the app has started', async () => {
    const page = await tab.newPage();
    const started = await holdRequests(page, '**/api/tenant');
    await page.goto(`${tab.server.base}/tab/`);
    const box = page.getByRole('search', { name: 'What applies' }).getByRole('textbox');
    await box.fill(APPLIES_DEMO.device);
    await box.press('Enter');
    const dialog = page.locator('[data-applies-dialog]');
    await dialog.waitFor();
    expect(await phase(page)).toBe('loading');
    expect(await dialog.getByRole('status').textContent()).toContain('Working it out');
    started();
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('found');
  });

  it('says when nothing has that name', async () => {
    const page = await tab.newPage();
    await askFromOverview(page, 'NO-SUCH-DEVICE');
    await expect.poll(() => phase(page), { timeout: 30_000 }).toBe('notFound');
    expect(await page.locator('[data-applies-dialog]').textContent()).toContain('Nothing is called "NO-SUCH-DEVICE"');
  });
});
