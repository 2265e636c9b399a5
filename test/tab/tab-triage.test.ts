import type { Locator, Page } from 'playwright-core';
import { request } from 'undici';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { declaredFindingsFor } from '../../src/sim/tenants/sim-tenant.js';
import { IT_STAFF_ROLE, TRIAGER_ROLE } from '../../src/server/tab-access.js';
import { TRIAGE_CHANGES_PER_MINUTE } from '../../src/server/triage-routes.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { seriousViolations } from '../support/axe-check.js';
import { saveScreenshot } from '../support/browser.js';
import type { PageGlobals } from '../support/browser.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const tab = useTabPages(harness);

async function openEscrow(): Promise<Page> {
  const page = await tab.newPage();
  await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
  await page.locator('[role=table]').first().waitFor();
  return page;
}

const declaredCount = (kind: string) => declaredFindingsFor(harness.sim.tenant).filter((finding) => finding.kind === kind).length;
const chipCount = async (chip: Locator) => Number(await chip.getAttribute('data-finding-count'));
const openChip = (page: Page) => page.locator('[data-finding-kind=missing-recovery-key]');

/** Narrows the table to rows with a missing recovery key and opens the first row's pane, by keyboard. */
async function openFirstPane(page: Page): Promise<{ pane: Locator; device: string }> {
  await openChip(page).getByRole('button').click();
  const button = page.getByRole('button', { name: /findings? for .*: details and how to fix$/ }).first();
  const device = /for (.*): details/.exec((await button.getAttribute('aria-label')) ?? '')?.[1] ?? '';
  await button.focus();
  await page.keyboard.press('Enter');
  const pane = page.getByRole('dialog');
  await pane.waitFor();
  return { pane, device };
}

/** Opens the pane of the one row the table shows, and reopens its accepted or snoozed finding. */
async function reopenShownRow(page: Page): Promise<void> {
  await expect.poll(() => page.locator('[data-shown-count]').getAttribute('data-shown-count')).toBe('1');
  await inFirstShownPane(page, 'missing-recovery-key', async (section) => {
    await section.getByRole('button', { name: 'Reopen' }).click();
    await section.locator('[data-triage=open]').waitFor();
  });
}

/** Opens the first shown row's pane, does `step` in its section for a finding of `kind`, and closes it. */
async function inFirstShownPane(page: Page, kind: string, step: (section: Locator) => Promise<void>): Promise<void> {
  await page
    .getByRole('button', { name: /details and how to fix$/ })
    .first()
    .click();
  const pane = page.getByRole('dialog');
  await step(pane.locator(`[data-finding-details=${kind}]`));
  await page.keyboard.press('Escape');
  await pane.waitFor({ state: 'detached' });
}

/** The pressed Accepted or Snoozed toggle of a table narrowed to none: shown at 0, pressed; let go of, every row and no toggle. */
async function letGoOfEmptyToggle(page: Page, state: 'accepted' | 'snoozed'): Promise<void> {
  const toggle = page.locator(`[data-triaged=${state}]`);
  await expect.poll(() => chipCount(toggle)).toBe(0);
  expect(await toggle.getByRole('button').getAttribute('aria-pressed')).toBe('true');
  expect(await page.locator('[data-shown-count]').getAttribute('data-shown-count')).toBe('0');
  await toggle.getByRole('button').click();
  await expect.poll(() => page.locator('[data-triaged]').count()).toBe(0);
  expect(Number(await page.locator('[data-shown-count]').getAttribute('data-shown-count'))).toBeGreaterThan(1);
}

describe('accepting and snoozing in the tab', () => {
  it('accepts a finding with a reason by keyboard: counted apart, shown apart, in the audit list, kept after a reload, and reopened', async () => {
    const page = await openEscrow();
    const before = await chipCount(openChip(page));
    const { pane, device } = await openFirstPane(page);
    const section = pane.locator('[data-finding-details=missing-recovery-key]');
    await section.getByRole('button', { name: 'Accept…' }).focus();
    await page.keyboard.press('Enter');
    // A reason is required: the form will not send without one.
    expect(await section.getByRole('button', { name: 'Accept finding' }).isDisabled()).toBe(true);
    await section.getByRole('textbox').fill('Kiosk: BitLocker off by design');
    await section.getByRole('button', { name: 'Accept finding' }).focus();
    await page.keyboard.press('Enter');
    await section.locator('[data-triage=accepted]').waitFor();
    expect(await section.textContent()).toContain('Kiosk: BitLocker off by design');
    await saveScreenshot(page, 'triage-accepted-pane');
    await page.keyboard.press('Escape');
    await pane.waitFor({ state: 'detached' });

    await expect.poll(() => chipCount(openChip(page))).toBe(before - 1);
    const accepted = page.locator('[data-triaged=accepted]');
    expect(await chipCount(accepted)).toBe(1);
    await accepted.getByRole('button').click();
    await expect.poll(() => page.locator('[data-shown-count]').getAttribute('data-shown-count')).toBe('1');
    expect(await page.getByRole('table').first().textContent()).toContain(device);
    await page.getByRole('button', { name: /^Triage log \(1\)$/ }).click();
    const log = page.getByRole('dialog');
    await log.locator('[data-audit-entry]').first().waitFor();
    expect(await log.textContent()).toMatch(new RegExp(`accepted “[^”]+” on ${device}: Kiosk: BitLocker off by design`));
    await saveScreenshot(page, 'triage-log');
    await page.keyboard.press('Escape');

    // Decisions are the server's: a reload shows them again, and the finding can be reopened.
    await page.reload();
    await page.locator('[data-triaged=accepted]').getByRole('button').click();
    await reopenShownRow(page);
    await expect.poll(() => chipCount(openChip(page))).toBe(before);
    // The table is still narrowed to accepted findings, of which there are none now: the toggle
    // stays, pressed, at 0, so the admin lets go of it where they pressed it; then it goes.
    await letGoOfEmptyToggle(page, 'accepted');
  });

  it('snoozes a finding until a day, and the overview counts it apart', async () => {
    const page = await openEscrow();
    const { pane } = await openFirstPane(page);
    const section = pane.locator('[data-finding-details=missing-recovery-key]');
    await section.getByRole('button', { name: 'Snooze…' }).click();
    const until = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
    await section.locator('input[type=date]').fill(until);
    await section.getByRole('button', { name: 'Snooze finding' }).click();
    await section.locator('[data-triage=snoozed]').waitFor();
    expect(await section.textContent()).toContain('Snoozed until');
    await page.keyboard.press('Escape');
    await pane.waitFor({ state: 'detached' });
    expect(await chipCount(page.locator('[data-triaged=snoozed]'))).toBe(1);

    await page.getByRole('tab', { name: 'Overview' }).click();
    const tile = page.locator('[data-report-tile=escrow-gaps][data-state=loaded]');
    await tile.waitFor();
    expect(await tile.locator('[data-triaged]').textContent()).toBe('Not counted: 0 accepted, 1 snoozed');
    await saveScreenshot(page, 'triage-overview');

    // Undo, so that the other tests see the report as it is.
    await page.getByRole('tab', { name: 'LAPS & BitLocker escrow' }).click();
    await page.locator('[data-triaged=snoozed]').getByRole('button').click();
    await reopenShownRow(page);
    await letGoOfEmptyToggle(page, 'snoozed');
  });

  it('keeps a kind pressed, at 0, once its last open finding is accepted, until the admin lets go of it', async () => {
    const page = await tab.newPage();
    await page.goto(`${tab.server.base}/tab/#/connector-health`);
    await page.locator('[role=table]').first().waitFor();
    const chip = page.locator('[data-finding-kind=ade-token-unhealthy]');
    expect(await chipCount(chip)).toBe(declaredCount('ade-token-unhealthy'));
    expect(declaredCount('ade-token-unhealthy')).toBe(2);
    await chip.getByRole('button').click();
    for (const left of [1, 0]) {
      await inFirstShownPane(page, 'ade-token-unhealthy', async (section) => {
        await section.getByRole('button', { name: 'Accept…' }).click();
        await section.getByRole('textbox').fill('Renewal booked with Apple Business Manager');
        await section.getByRole('button', { name: 'Accept finding' }).click();
        await section.locator('[data-triage=accepted]').waitFor();
      });
      await expect.poll(() => chipCount(chip)).toBe(left);
    }
    expect(await chip.getByRole('button').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('[data-shown-count]').getAttribute('data-shown-count')).toBe('0');
    await chip.getByRole('button').click();
    await expect.poll(() => chip.count()).toBe(0);

    // Both reopened, so that the other tests see the report as it is.
    await page.locator('[data-triaged=accepted]').getByRole('button').click();
    for (const left of [1, 0]) {
      await inFirstShownPane(page, 'ade-token-unhealthy', async (section) => {
        await section.getByRole('button', { name: 'Reopen' }).click();
        await section.locator('[data-triage=open]').waitFor();
      });
      await expect.poll(() => page.locator('[data-shown-count]').getAttribute('data-shown-count')).toBe(String(left));
    }
    await letGoOfEmptyToggle(page, 'accepted');
    expect(await chipCount(chip)).toBe(2);
  });

  it('says so when the decisions cannot be read, and counts every finding as open rather than showing none', async () => {
    const page = await tab.newPage();
    await page.route('**/api/reports/escrow-gaps/triage', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { status: 503, message: 'The state store is out of reach.' } }) }),
    );
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const bar = page.locator('[data-state=triage-error]');
    await bar.waitFor();
    expect(await bar.textContent()).toContain('Accepted and snoozed findings could not be read, so every finding is counted as open.');
    expect(await bar.textContent()).toContain('The state store is out of reach.');
    const missingKeys = declaredCount('missing-recovery-key');
    expect(await chipCount(openChip(page))).toBe(missingKeys);
    const { pane } = await openFirstPane(page);
    expect(await pane.textContent()).toContain('Whether this finding is accepted or snoozed could not be read.');
    expect(await pane.getByRole('button', { name: 'Accept…' }).count()).toBe(0);
  });

  it('shows why a change was refused, and changes nothing', async () => {
    const page = await openEscrow();
    const before = await chipCount(openChip(page));
    await page.route('**/api/reports/escrow-gaps/triage', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 403,
            contentType: 'application/json',
            body: JSON.stringify({ error: { status: 403, message: 'Accepting or snoozing needs the DeviceHealth.Triager role.' } }),
          })
        : route.continue(),
    );
    const { pane } = await openFirstPane(page);
    const section = pane.locator('[data-finding-details=missing-recovery-key]');
    await section.getByRole('button', { name: 'Accept…' }).click();
    await section.getByRole('textbox').fill('Kiosk');
    await section.getByRole('button', { name: 'Accept finding' }).click();
    await expect.poll(() => section.textContent()).toContain('Not allowed (HTTP 403): Accepting or snoozing needs the DeviceHealth.Triager role.');
    expect(await section.locator('[data-triage=open]').count()).toBe(1);
    // The count behind the pane is as it was.
    expect(await chipCount(openChip(page))).toBe(before);
  });

  it('shows a reader without the Triager role whether a finding is accepted or snoozed, and no buttons to change it', async () => {
    const page = await tab.newPage();
    const readerToken = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE] });
    await page.route('**/api/demo/token', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify({ token: readerToken, expiresIn: 3600 }) }));
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[role=table]').first().waitFor();
    const { pane } = await openFirstPane(page);
    const section = pane.locator('[data-finding-details=missing-recovery-key]');
    await section.locator('[data-triage=open]').waitFor();
    expect(await section.textContent()).toContain('Read only: accepting or snoozing a finding needs the DeviceHealth.Triager role.');
    expect(await section.getByRole('button', { name: 'Accept…' }).count()).toBe(0);
  });
});

describe('the triage log, read a page at a time', () => {
  let server: TabServer;

  // Megan's one decision, then Alex's 60 changes, at the pace the limit allows (its clock moved, not waited for).
  beforeAll(async () => {
    let limitNow = 0;
    server = await tab.startServer(harness.client(), { limitClock: () => limitNow });
    const tokenOf = (username: string, name: string, oid: string) =>
      harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [TRIAGER_ROLE], username, name, claims: { oid } });
    const megan = await tokenOf('megan@contoso.example', 'Megan Bowen', '77777777-7777-4777-8777-777777777777');
    const alex = await tokenOf('alex.wilber@contoso.example', 'Alex Wilber', '88888888-8888-4888-8888-888888888888');
    const api = async (bearer: string, method: 'GET' | 'POST', path: string, body?: unknown) => {
      const response = await request(`${server.base}${path}`, {
        method,
        headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.body.text();
      expect(response.statusCode, text).toBe(200);
      return JSON.parse(text) as unknown;
    };
    const findings = ((await api(alex, 'GET', '/api/reports/escrow-gaps')) as ReportResult).findings;
    await api(megan, 'POST', '/api/reports/escrow-gaps/triage', { action: 'accept', fingerprint: findings[0]!.fingerprint, reason: 'Lab device, wiped weekly' });
    for (let index = 0; index < 60; index += 1) {
      if (index % TRIAGE_CHANGES_PER_MINUTE === 0) limitNow += 60_000;
      await api(alex, 'POST', '/api/reports/escrow-gaps/triage', {
        action: index % 2 === 0 ? 'accept' : 'reopen',
        fingerprint: findings[1]!.fingerprint,
        reason: `round ${index}`,
      });
    }
  });

  async function openLog(options: Parameters<typeof tab.newPage>[0] = {}): Promise<{ page: Page; log: Locator }> {
    const page = await tab.newPage(options);
    await page.goto(`${server.base}/tab/#/escrow-gaps`);
    await page.getByRole('button', { name: /^Triage log \(61\)$/ }).click();
    return { page, log: page.getByRole('dialog') };
  }

  it("pages back by keyboard to another person's one old entry past someone's many, and narrows to a person", async () => {
    const { page, log } = await openLog();
    const entries = log.locator('[data-audit-entry]');
    const shown = log.locator('[data-audit-shown]');
    await expect.poll(() => entries.count()).toBe(50);
    expect(await shown.textContent()).toBe('50 of 61 entries, newest first.');
    expect(await log.textContent()).not.toContain('Lab device, wiped weekly');
    expect(await entries.first().textContent()).toContain('Alex Wilber reopened');

    // "Show older", by keyboard: the rest, down to Megan's, and focus on the first of them once there is nothing older.
    const older = log.getByRole('button', { name: 'Show older' });
    await older.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => entries.count()).toBe(61);
    expect(await older.count()).toBe(0);
    expect(await entries.last().textContent()).toContain('Megan Bowen accepted');
    expect(await entries.last().textContent()).toContain('Lab device, wiped weekly');
    const first = await entries.nth(50).getAttribute('data-audit-entry');
    expect(await page.evaluate((selector) => (globalThis as unknown as PageGlobals).document.activeElement?.matches(selector) ?? false, `[data-audit-entry="${first}"]`)).toBe(
      true,
    );
    await saveScreenshot(page, 'triage-log-paged');

    // Narrowed to Megan: her entry alone; to Alex: his newest page; back to everyone by keyboard.
    const picker = log.getByRole('combobox', { name: 'Whose entries' });
    await picker.click();
    await page.getByRole('option', { name: 'Megan Bowen (1)' }).click();
    await expect.poll(() => entries.count()).toBe(1);
    expect(await entries.first().textContent()).toContain('Megan Bowen accepted');
    expect(await shown.textContent()).toBe('1 of 1 entry by Megan Bowen, newest first.');
    expect(await older.count()).toBe(0);
    await picker.click();
    await page.getByRole('option', { name: 'Alex Wilber (60)' }).click();
    await expect.poll(() => shown.textContent()).toBe('50 of 60 entries by Alex Wilber, newest first.');
    await picker.focus();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Home');
    await page.keyboard.press('Enter');
    await expect.poll(() => shown.textContent()).toBe('50 of 61 entries, newest first.');
  });

  it('says why a page could not be read and reads it again when asked', async () => {
    const page = await tab.newPage();
    let failOnce = true;
    await page.route('**/api/reports/escrow-gaps/triage/audit*', (route) => {
      if (!failOnce) return route.continue();
      failOnce = false;
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { status: 503, message: 'The state store is out of reach.' } }) });
    });
    await page.goto(`${server.base}/tab/#/escrow-gaps`);
    await page.getByRole('button', { name: /^Triage log \(61\)$/ }).click();
    const log = page.getByRole('dialog');
    const failed = log.locator('[data-state=audit-error]');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('The triage log could not be read. The server answered HTTP 503: The state store is out of reach.');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect.poll(() => log.locator('[data-audit-entry]').count()).toBe(50);
    expect(await failed.count()).toBe(0);
  });

  it.each(['light', 'dark', 'contrast'] as const)('open in %s theme: no serious or critical axe violation', async (theme) => {
    const { page, log } = await openLog(theme === 'contrast' ? { forcedColors: 'active' } : { colorScheme: theme });
    await page.locator(`[data-theme=${theme}]`).waitFor();
    await log.locator('[data-audit-entry]').first().waitFor();
    // Colours are judged once the dialog has finished opening: mid-animation they are see-through.
    await log.evaluate((element) => {
      const animated = element as unknown as { getAnimations(options: { subtree: boolean }): Array<{ finished: Promise<unknown> }> };
      return Promise.all(animated.getAnimations({ subtree: true }).map((animation) => animation.finished));
    });
    await saveScreenshot(page, `triage-log-${theme}`);
    expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
  });
});
