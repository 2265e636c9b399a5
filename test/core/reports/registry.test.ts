import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseCommand } from '../../../src/bot/bot-command.js';
import { runCli } from '../../../src/cli/cli-commands.js';
import { REPORTS, ReportRegistry } from '../../../src/core/reports/registry.js';
import type { FindingDraft, ReportDefinition, ReportPresentation, ReportResult } from '../../../src/core/reports/report-model.js';
import { openStateStore } from '../../../src/app/open-state-store.js';
import type { StateStore } from '../../../src/store/state-store.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { STALE_AFTER_DAYS, staleDevicesReport } from '../../fixtures/stale-devices-report.js';
import { startPlayground } from '../../support/agents-playground.js';
import type { Playground } from '../../support/agents-playground.js';
import { launchTestBrowser } from '../../support/browser.js';
import type { TestBrowser } from '../../support/browser.js';
import { startBotServer } from '../../support/bot-server.js';
import type { BotServer } from '../../support/bot-server.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';
import { startTabServer } from '../../support/tab-server.js';
import type { TabServer } from '../../support/tab-server.js';

// Adding a report is its module and one line in the registry: here the six and one more.
const registry = new ReportRegistry([...REPORTS.definitions, staleDevicesReport as ReportDefinition<unknown>]);

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const devices = () => harness.sim.tenant.collections.managedDevices;
const staleCount = () => devices().filter((device) => Date.now() - Date.parse(String(device.lastSyncDateTime)) > STALE_AFTER_DAYS * 86_400_000).length;

describe('a report added with its module and one registry line', () => {
  let server: TabServer;
  let browser: TestBrowser;
  let page: Page | undefined;

  beforeAll(async () => {
    server = await startTabServer(harness.sim, harness.client(), { registry });
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

  it("is in the API's list, and loads through the API with its own finding kinds", async () => {
    const catalogue = (await (await get('/api/reports')).json()) as ReportPresentation[];
    expect(catalogue.map((report) => report.id)).toEqual([...REPORTS.ids, 'stale-devices']);
    expect(catalogue.at(-1)).toMatchObject({ title: 'Stale Devices', navigationLabel: 'Stale devices', permissions: ['DeviceManagementManagedDevices.Read.All'] });

    const report = (await (await get('/api/reports/stale-devices')).json()) as ReportResult;
    expect(report.state).toBe('loaded');
    expect(report.rows).toHaveLength(devices().length);
    expect(report.findings).toHaveLength(staleCount());
    expect(report.findingKinds).toMatchObject({ 'stale-device': { label: 'Devices not seen for a week', severity: 'low' } });
    expect((await get('/api/reports/stale-devices/progress')).status).toBe(200);
  });

  it("is in the tab's navigation, and the tab shows it", async () => {
    page = await browser.newPage();
    await page.goto(`${server.base}/tab/#/stale-devices`);
    await page.locator('[role=table]').waitFor();
    expect(await page.locator('[role=tab]').evaluateAll((tabs) => tabs.map((tab) => tab.id))).toEqual(['tab-overview', ...registry.ids.map((id) => `tab-${id}`)]);
    expect(await page.getByRole('tab', { name: 'Stale devices' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator('h2').textContent()).toBe('Stale Devices');
    expect(Number(await page.locator('[data-shown-count]').getAttribute('data-shown-count'))).toBe(devices().length);
  });

  it("is in the CLI's list, and the CLI loads it", async () => {
    const printed: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: unknown) => void printed.push(String(line)));
    const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (printed.push(String(chunk)), true));
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await runCli(['reports'], registry)).toBe(0);
      expect(printed.join('\n')).toMatch(/^stale-devices +Stale Devices$/m);
      printed.length = 0;
      expect(await runCli(['report', 'stale-devices', '--format', 'json'], registry)).toBe(0);
      const report = JSON.parse(printed.join('')) as ReportResult;
      expect(report).toMatchObject({ report: 'stale-devices', state: 'loaded' });
      expect(report.rows.length).toBeGreaterThan(0);
      printed.length = 0;
      expect(await runCli(['help'], registry)).toBe(0);
      expect(printed.join('\n')).toContain('stale-devices');
    } finally {
      log.mockRestore();
      write.mockRestore();
      error.mockRestore();
    }
  });
});

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
    store = await openStateStore(`file:${dataDirectory}`);
    server = await startBotServer(harness.sim, harness.client(), { store, registry });
    playground = await startPlayground(`${server.base}/api/messages`);
  });

  afterAll(async () => {
    await playground?.close();
    await server?.close();
    await store?.close();
    rmSync(dataDirectory, { recursive: true, force: true });
  });

  it('knows it by its names and its number', () => {
    for (const text of ['show stale devices', 'show stale', 'show 7', 'show stale-devices'])
      expect(parseCommand(text, registry), text).toEqual({ kind: 'show', report: 'stale-devices' });
    expect(parseCommand('show stale devices')).toMatchObject({ kind: 'unknown-report', name: 'stale devices' });
  });

  it('lists it in its help and answers its command with its card', async () => {
    const chat = playground.config.personalChat.id;
    let from = playground.messages.length;
    await playground.send(chat, 'help');
    const [help] = await playground.waitForMessages(from, 1);
    expect(JSON.stringify(help!.cards)).toContain('show stale devices');
    expect(JSON.stringify(help!.cards)).toContain('Devices that stopped checking in');

    from = playground.messages.length;
    await playground.send(chat, 'show stale devices');
    const [card] = await playground.waitForMessages(from, 1);
    expect(JSON.stringify(card!.cards)).toContain('Stale Devices');
  });
});
