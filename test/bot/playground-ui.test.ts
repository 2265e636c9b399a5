import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/app/open-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { startPlayground } from '../support/agents-playground.js';
import type { Playground } from '../support/agents-playground.js';
import { startBotServer } from '../support/bot-server.js';
import type { BotServer } from '../support/bot-server.js';
import { launchTestBrowser, saveScreenshot } from '../support/browser.js';
import type { TestBrowser } from '../support/browser.js';
import { useTestSimulator, simulatorTenantKey } from '../support/simulated-tenant.js';
import { declaredFindingsFor } from '../../src/sim/tenants/sim-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
let directory: string;
let store: StateStore;
let server: BotServer;
let playground: Playground;
let browser: TestBrowser;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'dmhealth-playground-'));
  store = await openStateStore(`file:${directory}`, { tenant: simulatorTenantKey(harness.sim) });
  server = await startBotServer(harness.sim, harness.client(), { store });
  playground = await startPlayground(`${server.base}/api/messages`);
  browser = await launchTestBrowser();
});

afterAll(async () => {
  await browser?.close();
  await playground?.close();
  await server?.close();
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('the bot in the Microsoft 365 Agents Playground', () => {
  it('answers "show escrow gaps" typed in a personal chat with the card of the demo tenant\'s gaps', async () => {
    const page = await browser.newPage();
    await page.goto(playground.base, { waitUntil: 'domcontentloaded' });
    await page.getByRole('treeitem', { name: 'Personal Chat' }).click();
    const box = page.getByRole('textbox');
    await box.fill('show escrow gaps');
    await page.getByRole('button', { name: 'Send Message' }).click();

    const card = page.locator('.ac-adaptiveCard').filter({ hasText: 'Windows LAPS & BitLocker Escrow Gaps' }).first();
    await card.waitFor({ timeout: 20_000 });
    const declared = declaredFindingsFor(harness.sim.tenant).filter((finding) => finding.report === 'escrow-gaps');
    const gaps = declared.length;
    const withoutKey = declared.filter((finding) => finding.kind === 'missing-recovery-key').length;
    const text = await card.innerText();
    expect(text).toContain(`${gaps} findings, worst first`);
    expect(text).toContain('Devices without an escrowed BitLocker key');
    expect(text).toMatch(/CONTOSO-\d{4}/);
    await card.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'playground-show-escrow-gaps', 'bot');
    expect(text).toContain('Open the report');
    expect(text).toMatch(new RegExp(`(^|\\n)\\s*${withoutKey}\\s+Devices without an escrowed BitLocker key`));
  });
});
