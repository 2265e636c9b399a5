import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/bot/commands/index.js';
import { readMessage } from '../../../src/bot/read-message.js';
import { runCliInProcess } from '../../support/cli-in-process.js';
import { REPORTS, ReportRegistry } from '../../../src/core/reports/registry.js';
import type { ReportSummary } from '../../../src/core/reports/report-summary.js';
import { CATALOGUE_ELEMENT_ID } from '../../../src/core/reports/report-model.js';
import type { FindingDraft, ReportDefinition, ReportPresentation, ReportResult } from '../../../src/core/reports/report-model.js';
import { openStateStore } from '../../../src/app/open-state-store.js';
import { applyFaults, readDemoSwitches } from '../../../src/server/demo-switches.js';
import type { StateStore } from '../../../src/store/state-store.js';
import { buildDemoTenant, demoGrantedRoles } from '../../../src/sim/tenants/demo-tenant.js';
import { declaredFindingsFor } from '../../../src/sim/tenants/sim-tenant.js';
import { AUTOPILOT_DEVICES_READ, STALE_AFTER_DAYS, staleDevicesReport } from '../../fixtures/stale-devices/definition.js';
import { AUTOPILOT_DEVICE_IDENTITIES } from '../../fixtures/stale-devices/sim-resource.js';
import { PRODUCT_READS, permissionsAskedFor, upstreamReadsOf } from '../../../src/core/upstream-reads.js';
import { UpstreamAllowList } from '../../../src/graph/upstream-allow-list.js';
import { describeSimulatorCoverage } from '../../support/simulator-coverage.js';
import { startPlayground } from '../../support/agents-playground.js';
import type { Playground } from '../../support/agents-playground.js';
import { launchTestBrowser } from '../../support/browser.js';
import type { TestBrowser } from '../../support/browser.js';
import { startBotServer } from '../../support/bot-server.js';
import type { BotServer } from '../../support/bot-server.js';
import { useTestSimulator, simulatorTenantKey } from '../../support/simulated-tenant.js';
import { startTabServer } from '../../support/tab-server.js';
import type { TabServer } from '../../support/tab-server.js';

// Adding a report is its folder and one line in the registry: here the seven and one more
// (test/fixtures/stale-devices/), taken up by the demo tenant, the API, the tab, the CLI, the bot,
// the overview and the fault switches with nothing else changed. It reads a Graph path no shipped
// report reads, declared in its folder: the allow-list, the permissions and the simulator's coverage
// check take it from there, and the simulator serves it from the folder's one resource file.
const registry = new ReportRegistry([...REPORTS.definitions, staleDevicesReport as ReportDefinition<unknown>]);
const resources = [AUTOPILOT_DEVICE_IDENTITIES];
const reads = upstreamReadsOf(registry);

const harness = useTestSimulator({ tenant: buildDemoTenant({ registry, resources }) });
const devices = () => harness.sim.tenant.collections.windowsAutopilotDeviceIdentities ?? [];
const staleCount = () => devices().filter((device) => Date.now() - Date.parse(String(device.lastContactedDateTime)) > STALE_AFTER_DAYS * 86_400_000).length;
const declared = () =>
  declaredFindingsFor(harness.sim.tenant)
    .filter((finding) => finding.report === 'stale-devices')
    .map(({ kind, subjectId }) => ({ kind, subjectId }));

describe('the demo tenant, with the added report', () => {
  it("plants the report's records and declares what they must make, and moves none of the seven reports' records", () => {
    const now = new Date('2026-11-22T09:00:00Z');
    const seven = buildDemoTenant({ now });
    const eight = buildDemoTenant({ now, registry, resources });
    const { windowsAutopilotDeviceIdentities: added = [], ...sevenCollections } = eight.collections;
    expect(added.map((device) => device.displayName)).toEqual(['LOBBY-KIOSK-01', 'LOBBY-KIOSK-02']);
    expect(sevenCollections).toEqual(seven.collections);
    expect(eight.singletons).toEqual(seven.singletons);
    expect(eight.groups).toEqual(seven.groups);
    expect(eight.declaredFindings).toEqual([...seven.declaredFindings, { report: 'stale-devices', kind: 'stale-device', subjectId: added[0]!.id }]);
  });
});

describe('a report added with its folder and one registry line', () => {
  let server: TabServer;
  let browser: TestBrowser;
  let page: Page | undefined;

  beforeAll(async () => {
    server = await startTabServer(harness.sim, harness.client({ reads }), { registry });
    browser = await launchTestBrowser();
  });

  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await server?.close();
  });

  const get = async (path: string) => {
    const { token } = (await (await fetch(`${server.base}/api/demo/token`)).json()) as { token: string };
    return fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  };

  it("is in the API's list, and loads through the API with its own finding kinds, finding what its demo records declare", async () => {
    const catalogue = (await (await get('/api/reports')).json()) as ReportPresentation[];
    expect(catalogue.map((report) => report.id)).toEqual([...REPORTS.ids, 'stale-devices']);
    expect(catalogue.at(-1)).toMatchObject({ title: 'Stale Devices', navigationLabel: 'Stale devices', permissions: ['DeviceManagementServiceConfig.Read.All'] });

    const report = (await (await get('/api/reports/stale-devices')).json()) as ReportResult;
    expect(report.state).toBe('loaded');
    expect(report.rows).toHaveLength(devices().length);
    expect(report.findings).toHaveLength(staleCount());
    expect(report.findings.map(({ kind, subjectId }) => ({ kind, subjectId }))).toEqual(declared());
    expect(report.findingKinds).toMatchObject({ 'stale-device': { label: 'Devices not seen for a month', severity: 'low' } });
    expect((await get('/api/reports/stale-devices/progress')).status).toBe(200);
  });

  it('is in the overview: its summary counts what it found', async () => {
    const summary = (await (await get('/api/reports/stale-devices/summary')).json()) as ReportSummary;
    expect(summary).toMatchObject({ report: 'stale-devices', title: 'Stale Devices', state: 'loaded', findings: declared().length, worst: 'low', rows: devices().length });
    expect(summary.counts).toMatchObject([{ kind: 'stale-device', count: declared().length }]);
  });

  it("is in the catalogue the server writes into the tab's page, charts and all", async () => {
    const html = await (await fetch(`${server.base}/tab/`)).text();
    const script = new RegExp(`<script type="application/json" id="${CATALOGUE_ELEMENT_ID}">(.*?)</script>`, 's').exec(html);
    const catalogue = JSON.parse(script![1]!) as ReportPresentation[];
    expect(catalogue.map((report) => report.id)).toEqual(registry.ids);
    expect(catalogue.at(-1)?.charts).toEqual(staleDevicesReport.charts);
  });

  it("is in the tab's navigation and overview, and the tab shows it with its chart", async () => {
    page = await browser.newPage();
    await page.goto(`${server.base}/tab/`);
    await page.locator('[data-report-tile=stale-devices][data-state=loaded]').waitFor();
    expect(await page.locator('[data-report-tile]').evaluateAll((tiles) => tiles.map((tile) => tile.getAttribute('data-report-tile')))).toEqual(registry.ids);

    await page.goto(`${server.base}/tab/#/stale-devices`);
    await page.locator('[role=table]').waitFor();
    expect(await page.locator('[role=tab]').evaluateAll((tabs) => tabs.map((tab) => tab.id))).toEqual(['tab-overview', 'tab-changes', ...registry.ids.map((id) => `tab-${id}`)]);
    expect(await page.getByRole('tab', { name: 'Stale devices' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('h2').textContent()).toBe('Stale Devices');
    expect(Number(await page.locator('[data-shown-count]').getAttribute('data-shown-count'))).toBe(devices().length);
    const chart = page.getByRole('figure', { name: 'Longest without a check-in' });
    // The longest silent first: the lost kiosk, 42 days.
    expect(await chart.locator('[data-bar]').first().getAttribute('data-bar')).toBe('42');
    expect(await chart.textContent()).toContain('LOBBY-KIOSK-01');
  });

  it("is in the CLI's list and overview, and the CLI loads it", async () => {
    let run = await runCliInProcess(['reports'], registry);
    expect(run.code).toBe(0);
    // Numbered after the seven, as `dmhealth reports` lists them.
    expect(run.stdout).toMatch(/^ *9 stale-devices +Stale Devices$/m);

    // The CLI reads its own demo tenant, the registry's records and the report's own resource.
    run = await runCliInProcess(['report', 'stale-devices', '--format', 'json'], registry, { resources });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as ReportResult;
    expect(report).toMatchObject({ report: 'stale-devices', state: 'loaded' });
    expect(report.rows.length).toBeGreaterThan(0);

    run = await runCliInProcess(['overview', '--format', 'json'], registry, { resources });
    expect(run.code).toBe(0);
    const summaries = JSON.parse(run.stdout) as ReportSummary[];
    expect(summaries.map((summary) => summary.report)).toEqual(registry.ids);

    run = await runCliInProcess(['help'], registry);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('stale-devices');
  });

  it('fails as a whole under --fault through the source its definition names, by its id or its number', async () => {
    expect(readDemoSwitches([], ['stale-devices:403'], REPORTS)).toMatchObject({ ok: false });
    expect(readDemoSwitches([], ['9:403'], registry)).toEqual({ ok: true, switches: { deny: [], faults: [{ report: 'stale-devices', status: 403 }] } });
    const switches = readDemoSwitches([], ['stale-devices:403'], registry);
    if (!switches.ok) throw new Error(switches.message);
    applyFaults(harness.sim, switches.switches.faults, registry);
    const report = (await (await get('/api/reports/stale-devices?refresh=true')).json()) as ReportResult;
    expect(report.state).toBe('load-error');
    expect(report.error?.status).toBe(403);
    expect(report.error?.message).toContain(`GET ${staleDevicesReport.faultSource}:`);
  });
});

describe('its declared read', () => {
  it('is a path no shipped code reads: the allow-list takes it with the report, and only with it', () => {
    expect(PRODUCT_READS.some((read) => read.path === AUTOPILOT_DEVICES_READ.path)).toBe(false);
    expect(new UpstreamAllowList(PRODUCT_READS).isAllowed(AUTOPILOT_DEVICES_READ.path)).toBe(false);
    const allowList = new UpstreamAllowList(reads);
    expect(allowList.paths.filter((path) => !new UpstreamAllowList(PRODUCT_READS).paths.includes(path))).toEqual([AUTOPILOT_DEVICES_READ.path]);
  });

  it('brings its permission into the set the app asks for, the demo tenant grants and --deny takes', () => {
    expect(staleDevicesReport.permissions).toEqual([AUTOPILOT_DEVICES_READ.permissions[0]]);
    expect(permissionsAskedFor(registry)).toContain(AUTOPILOT_DEVICES_READ.permissions[0]);
    // What the app asks for, and the optional permissions its reads can use (the demo grants those too).
    const granted = buildDemoTenant({ registry, resources }).grantedRoles;
    expect(granted).toContain(AUTOPILOT_DEVICES_READ.permissions[0]);
    expect(granted).toEqual(demoGrantedRoles(registry));
    expect(granted).toEqual(expect.arrayContaining(permissionsAskedFor(registry)));
    expect(readDemoSwitches([AUTOPILOT_DEVICES_READ.permissions[0]], [], registry)).toMatchObject({ ok: true });
  });

  it('is refused by the registry when the report does not say it needs its permission', () => {
    const silent = { ...staleDevicesReport, permissions: [] } as unknown as ReportDefinition<unknown>;
    expect(() => new ReportRegistry([...REPORTS.definitions, silent])).toThrow(/reads \/v1\.0\/deviceManagement\/windowsAutopilotDeviceIdentities without saying it needs/);
  });
});

describeSimulatorCoverage(
  "the simulator's coverage of the added report's read, from its folder's one resource file",
  () => buildDemoTenant({ registry, resources }),
  () => staleDevicesReport.reads,
  () => permissionsAskedFor(registry),
);

describe("a report's finding kinds", () => {
  it('are a typed union: a misspelt kind does not compile (npm test type-checks this file)', () => {
    const misspelt: FindingDraft<keyof typeof staleDevicesReport.findingKinds> = {
      // @ts-expect-error -- "stale-devise" is not one of the report's finding kinds
      kind: 'stale-devise',
      subjectId: 'd1',
      subjectName: 'PC',
      detail: '',
    };
    expect(Object.hasOwn(staleDevicesReport.findingKinds, misspelt.kind)).toBe(false);
  });
});

describe('the bot, with the added report', () => {
  let dataDirectory: string;
  let store: StateStore;
  let server: BotServer;
  let playground: Playground;

  beforeAll(async () => {
    dataDirectory = mkdtempSync(join(tmpdir(), 'dmhealth-registry-'));
    store = await openStateStore(`file:${dataDirectory}`, { tenant: simulatorTenantKey(harness.sim) });
    server = await startBotServer(harness.sim, harness.client({ reads }), { store, registry });
    playground = await startPlayground(`${server.base}/api/messages`);
  });

  afterAll(async () => {
    await playground?.close();
    await server?.close();
    await store?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('knows it by its names and its number', () => {
    for (const text of ['show stale devices', 'show stale', 'show 9', 'show stale-devices'])
      expect(readMessage(text, COMMANDS, registry).reading, text).toEqual({ kind: 'show', report: 'stale-devices' });
    expect(readMessage('show stale devices', COMMANDS, REPORTS).reading).toMatchObject({ kind: 'unknown-report', name: 'stale devices' });
  });

  it('lists it in its help and its overview, and answers its command with its card', async () => {
    const chat = playground.config.personalChat.id;
    let from = playground.messages.length;
    await playground.send(chat, 'help');
    const [help] = await playground.waitForMessages(from, 1);
    expect(JSON.stringify(help!.cards)).toContain('show stale devices');
    expect(JSON.stringify(help!.cards)).toContain('Devices that stopped checking in');

    from = playground.messages.length;
    await playground.send(chat, 'show overview');
    const [overview] = await playground.waitForMessages(from, 1);
    expect(JSON.stringify(overview!.cards)).toContain('Stale Devices');
    expect(JSON.stringify(overview!.cards)).toContain('#/stale-devices');

    from = playground.messages.length;
    await playground.send(chat, 'show stale devices');
    const [card] = await playground.waitForMessages(from, 1);
    expect(JSON.stringify(card!.cards)).toContain('Stale Devices');
  });
});
