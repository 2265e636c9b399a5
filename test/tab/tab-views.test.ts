import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { LAPS_PREREQUISITE_NOTICE, joinTypeNotice } from '../../src/core/reports/escrow-gaps/derive.js';
import { REPORT_IDS, loadReport, reportDefinition } from '../../src/core/reports/registry.js';
import type { ReportId } from '../../src/core/reports/report-model.js';
import { EMPTY_NOTICE as NO_ANALYTICS_NOTICE } from '../../src/core/reports/startup-reliability/derive.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { saveScreenshot } from '../support/browser.js';
import type { PageGlobals } from '../support/browser.js';
import { gate } from '../support/gate.js';
import { ALL_REPORT_ROLES, useTestSimulator } from '../support/simulated-tenant.js';
import { finishedAnswer, holdRequests, useTabPages } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';
import { declaredFindingsFor } from '../../src/sim/tenants/sim-tenant.js';

const now = new Date();
const tenant = buildDemoTenant({ now });
// Small pages, so that a load takes several round trips and has progress worth showing.
const harness = useTestSimulator({ tenant, pageSizes: { managedDevices: 25, bitlockerRecoveryKeys: 25, deviceLocalCredentials: 25 } });
const tab = useTabPages(harness, { now: () => now });

function openPage(colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  return tab.newPage({ colorScheme });
}

/** A server reading Graph as an app registration holding exactly `roles`, with its own cache. */
function serverWithRoles(roles: readonly string[]): Promise<TabServer> {
  const app = harness.sim.addApplication({ roles });
  return tab.startServer(harness.client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } }));
}

function freshServer(): Promise<TabServer> {
  return tab.startServer(harness.client());
}

const pendingLine = (page: Page, text: string) => page.locator('[role=status][data-pending]', { hasText: text });

async function findingCounts(page: Page): Promise<Record<string, number>> {
  return page.$$eval('[data-finding-kind]', (items) =>
    Object.fromEntries(items.map((item) => [item.getAttribute('data-finding-kind'), Number(item.getAttribute('data-finding-count'))])),
  );
}

function declaredCounts(id: ReportId): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const finding of declaredFindingsFor(tenant).filter((declared) => declared.report === id)) counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
  return counts;
}

describe('each report on the demo tenant', () => {
  it.each(REPORT_IDS)("%s: the start and loading states, then the table with the scenario's findings, in light and dark", async (id) => {
    const page = await openPage('light');
    const releaseSignIn = await holdRequests(page, '**/api/demo/token');
    const releaseReport = await holdRequests(page, `**/api/reports/${id}/preview`);
    await page.goto(`${tab.server.base}/tab/#/${id}`);

    await pendingLine(page, reportDefinition(id).pending.starting).waitFor();
    releaseSignIn();
    await pendingLine(page, reportDefinition(id).pending.fetching).waitFor();
    releaseReport();

    await page.locator('[role=table]').first().waitFor();
    expect(await findingCounts(page)).toEqual(declaredCounts(id));
    expect(await page.locator('[role=table] [role=row]').count()).toBeGreaterThan(1);
    expect(await page.locator('h2').textContent()).toBe(reportDefinition(id).title);
    await page.locator('[data-demo-tenant]').waitFor();
    await saveScreenshot(page, `${id}-light`);

    // The theme follows the system live, as it follows Teams' theme inside Teams.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.locator('[data-theme=dark]').waitFor();
    await saveScreenshot(page, `${id}-dark`);
  });

  it('shows what a long load has read so far, source by source', async () => {
    // The load, once it has read its sources, is held until the page has shown how far it got: the
    // page sees it under way however fast or slow either side runs.
    const graph = harness.client();
    const held = gate();
    const server = await tab.startServer(graph, {
      load: async (id, onProgress) => {
        const result = await loadReport(id, graph, { onProgress, now: () => now });
        await held.opened;
        return result;
      },
    });
    const page = await openPage();
    try {
      await page.goto(`${server.base}/tab/#/escrow-gaps`);
      const progress = page.locator('[data-progress]');
      await progress.waitFor();
      expect(await progress.textContent()).toMatch(/Reading .*(managedDevices|recoveryKeys|deviceLocalCredentials): [\d,]+ records?/);
    } finally {
      held.open();
    }
    await page.locator('[role=table]').waitFor();
    expect(await page.locator('[data-progress]').count()).toBe(0);
  });

  it('takes the high-contrast theme when the system forces colours, and a screenshot of it', async () => {
    const page = await tab.newPage({ forcedColors: 'active' });
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[role=table]').waitFor();
    await page.locator('[data-theme=contrast]').waitFor();
    await saveScreenshot(page, 'escrow-gaps-high-contrast');
  });

  it('moves between reports with the navigation and follows a deep link', async () => {
    const page = await openPage();
    await page.goto(`${tab.server.base}/tab/#/security-posture`);
    await page.locator('h2', { hasText: 'Endpoint Security Policy Posture' }).waitFor();
    await page.getByRole('tab', { name: 'Multi admin approval' }).click();
    await page.locator('h2', { hasText: 'Multi Admin Approval Coverage' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/admin-approval');
    await page.locator('[role=table]').first().waitFor();
  });

  it('shows cells as their columns say: verdicts in the tone the report gives them, dates as dates in every row', async () => {
    const page = await openPage();
    await page.goto(`${tab.server.base}/tab/#/security-posture`);
    const firewallOff = page.locator('[role=cell]', { hasText: 'Firewall switched off by policy' }).first();
    await firewallOff.waitFor();
    expect(await firewallOff.getAttribute('data-tone')).toBe('danger');
    expect(await page.locator('[role=cell]', { hasText: 'Audit only: not enforced' }).first().getAttribute('data-tone')).toBe('warning');

    // Report 4's key column starts with "missing" rows; the escrowed dates below still read as dates.
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[role=table]').waitFor();
    const keyCells = await page.locator('[role=row] [role=cell]:nth-child(4)').allInnerTexts();
    expect(keyCells.some((text) => text.startsWith('missing'))).toBe(true);
    expect(keyCells.some((text) => /ago/.test(text))).toBe(true);
    expect(keyCells.every((text) => !/\d{4}-\d{2}-\d{2}T/.test(text))).toBe(true);
  });
});

describe('the tab as the window and the clock move', () => {
  it('an unknown link says so over the overview, rather than showing another report', async () => {
    const page = await openPage();
    await page.goto(`${tab.server.base}/tab/#/no-such-report`);
    const warning = page.locator('[data-state=unknown-link]');
    await warning.waitFor();
    expect(await warning.textContent()).toContain('There is no report “no-such-report”');
    await page.locator('#overview-title').waitFor();
    expect(await page.locator('[role=table]').count()).toBe(0);
    await page.getByRole('tab', { name: 'LAPS & BitLocker escrow' }).click();
    await page.locator('[role=table]').waitFor();
    expect(await warning.count()).toBe(0);
  });

  it('the navigation turns from a column to a row when the window narrows, and back', async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${tab.server.base}/tab/`);
    const tabs = page.getByRole('tablist');
    await expect.poll(() => tabs.getAttribute('aria-orientation')).toBe('vertical');
    // In the column, the labels start at one indent, the selected (bold) one too.
    await page.getByRole('tab', { name: 'Connectors & integrations' }).click();
    // Where each label's text starts (a range over its text, not the box around it).
    const labelStarts = await page.locator('[role=tab] .fui-Tab__content').evaluateAll((labels) =>
      labels.map((label) => {
        const text = (globalThis as unknown as PageGlobals).document.createRange();
        text.selectNodeContents(label);
        return Math.round(text.getBoundingClientRect().left);
      }),
    );
    expect(labelStarts).toHaveLength(REPORT_IDS.length + 2); // the overview, what changed, then each report
    expect(new Set(labelStarts).size).toBe(1);
    await page.setViewportSize({ width: 420, height: 800 });
    await expect.poll(() => tabs.getAttribute('aria-orientation')).toBe('horizontal');
    await page.setViewportSize({ width: 1366, height: 768 });
    await expect.poll(() => tabs.getAttribute('aria-orientation')).toBe('vertical');
  });

  it.each([
    [1366, 768],
    [768, 1024],
    [390, 844],
  ])('at %ix%i, every report shows its first rows on the first screen', async (width, height) => {
    const page = await openPage();
    await page.setViewportSize({ width, height });
    for (const id of REPORT_IDS) {
      await page.goto(`${tab.server.base}/tab/#/${id}`);
      const firstRow = page.locator('[role=table] [role=row]').nth(1);
      await firstRow.waitFor();
      const box = (await firstRow.boundingBox())!;
      expect(box.y + box.height, id).toBeLessThanOrEqual(height);
    }
  });

  it('cuts a long notice to two lines on a phone, and shows it whole on request', async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${tab.server.base}/tab/#/assignment-hygiene`);
    const notice = page.locator('[data-state=notice]');
    const text = notice.locator('[data-clamped]');
    await expect.poll(() => text.getAttribute('data-clamped')).toBe('true');
    const cut = (await text.boundingBox())!.height;
    const more = notice.getByRole('button', { name: 'Show all' });
    expect(await more.getAttribute('aria-expanded')).toBe('false');
    await more.focus();
    await page.keyboard.press('Enter');
    const less = notice.getByRole('button', { name: 'Show less' });
    expect(await less.getAttribute('aria-expanded')).toBe('true');
    expect((await text.boundingBox())!.height).toBeGreaterThan(cut * 3);
    // Cut or whole, the text is all in the page.
    expect(await text.textContent()).toContain('as the Intune admin center does, to include them.');
  });

  it('counts findings with thousands separators, as it counts rows', async () => {
    const page = await openPage();
    await page.route('**/api/reports/escrow-gaps/preview', async (route) => {
      const report = (await (await route.fetch()).json()) as { findings: Array<Record<string, unknown>> };
      const first = report.findings.find((finding) => finding.kind === 'missing-recovery-key')!;
      report.findings = Array.from({ length: 8_235 }, (_, index) => ({ ...first, fingerprint: index.toString(16).padStart(32, '0') }));
      await route.fulfill({ json: report });
    });
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const chip = page.locator('[data-finding-kind=missing-recovery-key]');
    await chip.waitFor();
    expect(await chip.textContent()).toContain('8,235');
  });

  it('keeps its freshness label true: "Updated" moves on as time passes, and never speaks of the future', async () => {
    // Both clocks are the test's: the server reads the report at `now`, and the page's time stands
    // where the test sets it (its timers still run), so the label is the same however busy the machine.
    const server = await tab.startServer(harness.client(), { now: () => now });
    const page = await tab.newPageOnOwnClock();
    // The page's clock two seconds behind the server's, as when it took its time before the report arrived.
    await page.clock.setFixedTime(now.getTime() - 2_000);
    await page.goto(`${server.base}/tab/#/connector-health`);
    const label = page.locator('[data-generated-at]');
    await label.waitFor();
    expect(await label.getAttribute('data-generated-at')).toBe(now.toISOString());
    expect(await label.textContent()).toBe('Updated now');
    // Three minutes on, the label follows at the tab's next tick (every 30 s, src/tab/app/App.tsx).
    await page.clock.setFixedTime(now.getTime() + 3 * 60_000);
    await page.clock.fastForward('00:30');
    await page.locator('[data-generated-at]', { hasText: /^Updated 3 minutes ago$/ }).waitFor();
  });
});

describe('full text without hover', () => {
  it("names what a link opens when it is not the row's own page: an intent-era baseline opens the security baselines list", async () => {
    const page = await openPage();
    await page.goto(`${tab.server.base}/tab/#/security-posture`);
    const listLink = page.getByRole('link', { name: 'Open the security baselines list in the Intune admin center' }).first();
    await listLink.waitFor();
    expect(await listLink.getAttribute('href')).toMatch(/^https:\/\/intune\.microsoft\.com\//);
    await page.getByRole('button', { name: /^Windows baseline \(2020\): every field/ }).click();
    const pane = page.getByRole('dialog');
    expect(await pane.getByRole('link').filter({ hasText: 'in the Intune admin center' }).textContent()).toBe('Open the security baselines list in the Intune admin center');
  });

  it("a row's first cell opens, by keyboard, a pane with every field in full, however the table cut it", async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 1024, height: 768 });
    const answer = finishedAnswer(page, (response) => new URL(response.url()).pathname === '/api/reports/assignment-hygiene/preview');
    await page.goto(`${tab.server.base}/tab/#/assignment-hygiene`);
    const report = (await (await answer).json()) as { columns: Array<{ key: string; label: string; format: string }>; rows: Array<Record<string, unknown>> };
    await page.locator('[role=table]').first().waitFor();
    const opener = page.locator('[role=row][aria-rowindex="2"] [data-open-row]').first();
    const name = (await opener.textContent())!;
    await opener.focus();
    await page.keyboard.press('Enter');
    const pane = page.getByRole('dialog');
    await pane.locator('[data-row-fields]').waitFor();
    const row = report.rows.find((candidate) => Object.values(candidate).includes(name))!;
    const textColumns = report.columns.filter((column) => column.format === 'text' || column.format === 'status');
    expect(textColumns.length).toBeGreaterThan(1);
    const fields = (await pane.locator('[data-row-fields]').textContent())!;
    for (const column of textColumns) {
      expect(fields).toContain(column.label);
      if (typeof row[column.key] === 'string') expect(fields).toContain(row[column.key]);
    }
    await saveScreenshot(page, 'row-fields');
    await page.keyboard.press('Escape');
    await pane.waitFor({ state: 'detached' });
  });
});

describe('the states of the specification', () => {
  it('a missing permission: a red error naming 403, and no table', async () => {
    const server = await serverWithRoles(['DeviceManagementServiceConfig.Read.All']); // connector-health also needs DeviceManagementConfiguration.Read.All
    const page = await openPage();
    await page.goto(`${server.base}/tab/#/connector-health`);
    const error = page.locator('[data-state=load-error]');
    await error.waitFor();
    expect(await error.textContent()).toContain('HTTP 403');
    expect(await error.textContent()).toContain('DeviceManagementConfiguration.Read.All');
    expect(await page.locator('[role=table]').count()).toBe(0);
    await saveScreenshot(page, 'state-load-error-403');
  });

  it('report 4 without the BitLocker permission: "n/a" in that column and no findings from it', async () => {
    const server = await serverWithRoles(['DeviceLocalCredential.ReadBasic.All', 'DeviceManagementManagedDevices.Read.All']);
    const page = await openPage();
    await page.goto(`${server.base}/tab/#/escrow-gaps`);
    await page.locator('[role=table]').waitFor();
    expect(await page.getByRole('columnheader', { name: 'Recovery key (n/a)' }).count()).toBe(1);
    const recoveryCells = await page.$$eval('[role=table] [role=row]', (rows) => rows.slice(1).map((row) => row.querySelectorAll('[role=cell]')[3]?.textContent));
    expect(recoveryCells.length).toBeGreaterThan(0);
    expect(new Set(recoveryCells)).toEqual(new Set(['n/a']));
    const counts = await findingCounts(page);
    expect(counts['missing-recovery-key']).toBeUndefined();
    expect(counts['missing-laps-password']).toBe(declaredCounts('escrow-gaps')['missing-laps-password']);
    await saveScreenshot(page, 'state-escrow-column-na');
  });

  it("report 6's chart draws the slow-start threshold on the bars' own scale, with every figure whole", async () => {
    const page = await openPage();
    await page.goto(`${tab.server.base}/tab/#/startup-reliability`);
    const chart = page.getByRole('figure', { name: 'Slowest models: mean power-on to desktop' });
    const line = chart.locator('[data-threshold]');
    await line.waitFor();
    expect(await line.getAttribute('data-threshold')).toBe('120');
    expect(await chart.textContent()).toContain('Slow: 120 s');
    const box = async (element: Locator) => (await element.boundingBox())!;
    const bars = await Promise.all((await chart.locator('[data-bar]').all()).map(async (bar) => ({ value: Number(await bar.getAttribute('data-bar')), ...(await box(bar)) })));
    const thresholdBox = await box(line);
    const figureBox = await box(chart);
    const geometry = {
      bars: bars.map((bar) => ({ value: bar.value, left: bar.x, right: bar.x + bar.width })),
      threshold: thresholdBox.x + thresholdBox.width / 2,
      figure: figureBox.x + figureBox.width,
      figures: await Promise.all((await chart.locator('[data-bar] + span').all()).map(async (value) => box(value).then((b) => b.x + b.width))),
    };
    expect(geometry.bars.length).toBeGreaterThan(1);
    // The bars and the line share one scale: pixels per second are the same for each.
    const origin = geometry.bars[0]!.left;
    const perSecond = (geometry.bars[0]!.right - origin) / geometry.bars[0]!.value;
    for (const bar of geometry.bars) expect(bar.right - origin).toBeCloseTo(bar.value * perSecond, 0);
    expect(Math.abs(geometry.threshold - origin - 120 * perSecond)).toBeLessThan(3);
    // No figure printed past the chart's edge.
    for (const right of geometry.figures) expect(right).toBeLessThanOrEqual(geometry.figure);
  });

  it("endpoint analytics returned nothing: report 6's notice, and no table", async () => {
    const kept = tenant.collections.userExperienceAnalyticsDevicePerformance;
    tenant.collections.userExperienceAnalyticsDevicePerformance = [];
    try {
      const server = await freshServer();
      const page = await openPage();
      await page.goto(`${server.base}/tab/#/startup-reliability`);
      const notice = page.locator('[data-state=empty]');
      await notice.waitFor();
      expect(await notice.textContent()).toBe(NO_ANALYTICS_NOTICE);
      expect(await page.locator('[role=table]').count()).toBe(0);
      await saveScreenshot(page, 'state-analytics-empty');
    } finally {
      tenant.collections.userExperienceAnalyticsDevicePerformance = kept;
    }
  });

  it('Windows LAPS off in the directory: report 4 still loads, asks whether LAPS is enabled, and shows the passwords missing', async () => {
    const kept = tenant.collections.deviceLocalCredentials;
    tenant.collections.deviceLocalCredentials = [];
    try {
      const server = await freshServer();
      const page = await openPage();
      await page.goto(`${server.base}/tab/#/escrow-gaps`);
      await page.locator('[role=table]').waitFor();
      // Read on /v1.0, the report also says that hybrid-joined and Entra registered devices cannot be told apart.
      expect(await page.locator('[data-state=notice] [data-clamped]').textContent()).toBe(`${LAPS_PREREQUISITE_NOTICE} ${joinTypeNotice({ keys: true, laps: true })}`);
      const lapsCells = await page.$$eval('[role=table] [role=row]', (rows) => rows.slice(1).map((row) => row.querySelectorAll('[role=cell]')[4]?.textContent));
      expect(new Set(lapsCells)).toEqual(new Set(['missing']));
      await saveScreenshot(page, 'state-laps-off');
    } finally {
      tenant.collections.deviceLocalCredentials = kept;
    }
  });

  it('a fault in a report view: the banner with Reload, and Reload recovers', async () => {
    const page = await openPage();
    // The API answers with a report the view cannot draw: rows that are not rows.
    await page.route('**/api/reports/admin-approval/preview', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({
          report: 'admin-approval',
          title: 'Multi Admin Approval Coverage',
          state: 'loaded',
          error: null,
          notice: null,
          columns: [{ key: 'area', label: 'Area', available: true }],
          rows: [null],
          findings: [null],
          generatedAt: new Date().toISOString(),
        }),
      }),
    );
    await page.goto(`${tab.server.base}/tab/#/admin-approval`);
    const banner = page.locator('[data-state=fault]');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('The application may stop responding until it is reloaded.');
    await saveScreenshot(page, 'state-application-fault');

    await page.unroute('**/api/reports/admin-approval/preview');
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.locator('[role=table]').first().waitFor();
    expect(await banner.count()).toBe(0);
    expect(await findingCounts(page)).toEqual(declaredCounts('admin-approval'));
  });

  it('a page served without its list of reports: a clear error, not an empty tab', async () => {
    const page = await openPage();
    await page.route(/\/tab\/$/, async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(/<script type="application\/json" id="report-catalogue">[\s\S]*?<\/script>/, '');
      await route.fulfill({ response, body: html });
    });
    await page.goto(`${tab.server.base}/tab/`);
    const error = page.locator('[data-state=startup-error]');
    await error.waitFor();
    expect(await error.textContent()).toContain('The page came without its list of reports');
    expect(await page.locator('[role=tab]').count()).toBe(0);
  });

  it("a user without the IT staff role: the server's 403 is shown, not an empty report", async () => {
    const page = await openPage();
    await page.route('**/api/demo/token', async (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ token: await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [] }), expiresIn: 3600 }),
      }),
    );
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const error = page.locator('[data-state=startup-error]');
    await error.waitFor();
    expect(await error.textContent()).toContain('HTTP 403');
    expect(await error.textContent()).toContain('DeviceHealth.Reader');
    expect(await page.locator('[role=table]').count()).toBe(0);
  });
});

describe('the overview', () => {
  it('is the landing view: every report side by side, in every state it can be in, and a tile opens its report', async () => {
    // Report 5 refused by Graph (a 403: its policies also answer to the configuration permission,
    // which the other reports need), report 4 without BitLocker keys (an n/a column), report 6 with
    // no analytics (its empty notice), report 3 held back (still loading).
    harness.sim.faults.add({ path: '/beta/deviceManagement/operationApprovalPolicies', status: 403 });
    const roles = ALL_REPORT_ROLES.filter((role) => role !== 'BitlockerKey.ReadBasic.All');
    const kept = tenant.collections.userExperienceAnalyticsDevicePerformance;
    tenant.collections.userExperienceAnalyticsDevicePerformance = [];
    try {
      const server = await serverWithRoles(roles);
      const page = await openPage();
      const releasePosture = await holdRequests(page, '**/api/reports/security-posture/summary');
      await page.goto(`${server.base}/tab/`);
      const tile = (id: ReportId) => page.locator(`[data-report-tile=${id}]`);
      const tileIn = (id: ReportId, state: string) => page.locator(`[data-report-tile=${id}][data-state=${state}]`);
      await tileIn('security-posture', 'loading').waitFor();
      await tileIn('admin-approval', 'load-error').waitFor();
      await tileIn('startup-reliability', 'empty').waitFor();
      await tileIn('escrow-gaps', 'loaded').waitFor();
      expect(await tile('admin-approval').textContent()).toContain('HTTP 403');
      expect(await tile('startup-reliability').textContent()).toContain(NO_ANALYTICS_NOTICE);
      expect(await tile('escrow-gaps').locator('[data-unavailable]').textContent()).toContain('BitlockerKey.ReadBasic.All');
      expect(await tile('escrow-gaps').getAttribute('data-worst')).toBe('medium'); // no key findings without the key permission
      await saveScreenshot(page, 'overview-states');
      releasePosture();
      await tileIn('security-posture', 'loaded').waitFor();
      expect(await tile('security-posture').getAttribute('data-worst')).toBe('high');
      const postureCounts = await tile('security-posture')
        .locator('[data-finding-kind]')
        .evaluateAll((items) => Object.fromEntries(items.map((item) => [item.getAttribute('data-finding-kind'), Number(item.getAttribute('data-finding-count'))])));
      expect(postureCounts).toEqual(declaredCounts('security-posture'));

      await tile('escrow-gaps')
        .getByRole('button', { name: /^Open / })
        .click();
      await page.locator('h2', { hasText: reportDefinition('escrow-gaps').title }).waitFor();
      expect(new URL(page.url()).hash).toBe('#/escrow-gaps');
    } finally {
      tenant.collections.userExperienceAnalyticsDevicePerformance = kept;
    }
  });
});

describe('findings to act on', () => {
  it('a finding chip narrows the table to that kind, and back', async () => {
    const page = await openPage();
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    await page.locator('[role=table]').waitFor();
    const shown = async () => Number(await page.locator('[data-shown-count]').getAttribute('data-shown-count'));
    const all = await shown();
    const lapsSubjects = new Set(
      declaredFindingsFor(tenant)
        .filter((finding) => finding.report === 'escrow-gaps' && finding.kind === 'missing-laps-password')
        .map((finding) => finding.subjectId.toLowerCase()),
    );
    const chip = page.locator('[data-finding-kind=missing-laps-password] button');
    await chip.click();
    await expect.poll(shown).toBe(lapsSubjects.size);
    expect(await chip.getAttribute('aria-pressed')).toBe('true');
    await chip.click();
    await expect.poll(shown).toBe(all);
    expect(await chip.getAttribute('aria-pressed')).toBe('false');
  });

  it("a row's findings open in a pane by keyboard: what, why, how to fix with Microsoft Learn sources, and the Intune link", async () => {
    const page = await openPage();
    await page.goto(`${tab.server.base}/tab/#/escrow-gaps`);
    const button = page.getByRole('button', { name: /findings? for .*: details and how to fix$/ }).first();
    await button.focus();
    await page.keyboard.press('Enter');
    const pane = page.getByRole('dialog');
    await pane.waitFor();
    expect(await pane.textContent()).toContain('Why it matters');
    expect(await pane.textContent()).toContain('How to fix it');
    const sources = await pane.locator('a[href^="https://learn.microsoft.com/"]').count();
    expect(sources).toBeGreaterThan(0);
    expect(await pane.getByRole('link', { name: /in the Intune admin center$/ }).getAttribute('href')).toMatch(/^https:\/\/intune\.microsoft\.com\//);
    await saveScreenshot(page, 'finding-details');
    await page.keyboard.press('Escape');
    await pane.waitFor({ state: 'detached' });
  });
});

describe('opening a report that has aged', () => {
  it('shows the last good result at once, says it is refreshing, and swaps in the newer one when it lands', async () => {
    // The cache's clock is the test's: the result ages when the test says, however busy the machine.
    let cacheTime = Date.now();
    // So are the times the report is read at, and the newer load ends only when the test lets it.
    const later = new Date(now.getTime() + 60_000);
    const graph = harness.client();
    const newer = gate();
    let escrowLoads = 0;
    const server = await tab.startServer(graph, {
      cacheMaxAgeMs: 1_000,
      cacheClock: () => cacheTime,
      load: async (id, onProgress) => {
        const newerLoad = id === 'escrow-gaps' && escrowLoads++ > 0;
        if (newerLoad) await newer.opened;
        return loadReport(id, graph, { onProgress, now: () => (newerLoad ? later : now) });
      },
    });
    const page = await openPage();
    try {
      await page.goto(`${server.base}/tab/#/escrow-gaps`);
      await page.locator('[role=table]').waitFor();
      expect(await page.locator('[data-generated-at]').getAttribute('data-generated-at')).toBe(now.toISOString());

      cacheTime += 1_200; // the result ages past the cache's freshness
      await page.getByRole('tab', { name: 'Overview' }).click();
      await page.getByRole('tab', { name: 'LAPS & BitLocker escrow' }).click();
      // The table is back, from the last good result, while the newer load cannot have ended.
      await page.locator('[role=status][data-pending=Refreshing]').waitFor();
      await page.locator('[role=table]').waitFor();
      expect(await page.locator('[data-generated-at]').getAttribute('data-generated-at')).toBe(now.toISOString());
    } finally {
      newer.open();
    }
    // Then the newer result replaces it.
    await page.locator(`[data-generated-at="${later.toISOString()}"]`).waitFor();
    await page.locator('[role=status][data-pending=Refreshing]').waitFor({ state: 'detached' });
    expect(await page.locator('[role=table]').count()).toBeGreaterThan(0);
  });
});

describe('the overview after a change in the tenant', () => {
  it(
    'says on the tile and in the report how many findings are new and how many resolved since the previous load, with the trend',
    async () => {
      let cacheTime = Date.now();
      const server = await tab.startServer(harness.client(), { cacheMaxAgeMs: 500, cacheClock: () => cacheTime });
      const page = await openPage();
      await page.goto(`${server.base}/tab/`);
      const escrow = page.locator('[data-report-tile=escrow-gaps][data-state=loaded]');
      await escrow.waitFor();
      expect(await escrow.locator('[data-changes]').count()).toBe(0); // one load: nothing to compare with

      // Two devices lose their escrowed LAPS password between the loads.
      const kept = tenant.collections.deviceLocalCredentials;
      tenant.collections.deviceLocalCredentials = kept.slice(2);
      try {
        cacheTime += 600; // the result ages: the next visit loads again behind it
        await page.reload();
        await expect.poll(() => escrow.locator('[data-changes]').textContent(), { timeout: 20_000 }).toMatch(/^2 new, 0 resolved since the load /);
        // The trend: one point per successful load, drawn from the second on.
        const trend = /^Findings per load, 2 loads from .*: from (\d+) to (\d+)$/.exec((await escrow.locator('svg[data-trend-points="2"]').getAttribute('aria-label')) ?? '');
        expect(Number(trend?.[2]) - Number(trend?.[1])).toBe(2);
        await saveScreenshot(page, 'overview-trend');
        // The report says it too, one tap away beside its findings' heading, not above its table
        // (opening it, aged, may load it a third time: no change since the second).
        await escrow.getByRole('button', { name: /^Open / }).click();
        await page.locator('[role=table]').first().waitFor();
        await page.locator('[aria-label=Findings] [data-history]').click();
        await expect.poll(() => page.locator('[aria-label=Findings] [data-changes]').textContent(), { timeout: 20_000 }).toMatch(/^(2|0) new, 0 resolved since the load /);
        expect(await page.locator('[aria-label=Findings] svg[data-trend-points]').count()).toBe(1);
      } finally {
        tenant.collections.deviceLocalCredentials = kept;
      }
      // Three loads of every report in the overview, each a bound that grows with the registry.
    },
    REPORT_IDS.length * 10_000,
  );
});
