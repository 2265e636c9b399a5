import type { Page } from 'playwright-core';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { REPORT_IDS } from '../../src/core/reports/registry.js';
import { DEMO_PERSONA_KEY } from '../../src/tab/host/demo-personas.js';
import { saveScreenshot } from '../support/browser.js';
import { seriousViolations } from '../support/axe-check.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { useTabPages } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const now = new Date('2026-11-23T09:00:00Z');
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });
// The file's server has the viewer scope on (VIEWER_SCOPE=intune-rbac), as docs/finding-rules.md, "Viewer scope", describes.
const tab = useTabPages(harness, { now: () => now, viewerScope: true });

/** The reports that cover the whole tenant and that no role of the demo's Europe administrator opens (docs/finding-rules.md, "Viewer scope"). */
const WHOLE_TENANT_ONLY = ['connector-health', 'admin-approval', 'setting-conflicts'];
const IN_EUROPE = ['assignment-hygiene', 'security-posture', 'escrow-gaps', 'startup-reliability', 'baseline-drift'];

/** The paths of the report API (`/api/reports/…`, `/api/applies`) a page asks for from now on. */
function tenantDataRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/reports') || path.startsWith('/api/applies')) paths.push(path);
  });
  return paths;
}

/** The demo sign-in's requests a page makes from now on, each with its `as`. */
function signIns(page: Page): Array<string | null> {
  const asked: Array<string | null> = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/demo/token') asked.push(url.searchParams.get('as'));
  });
  return asked;
}

/** The header's line naming the viewer, once the sign-in has answered. */
async function viewerLine(page: Page, expected: RegExp): Promise<string> {
  const line = page.locator('[data-viewer]');
  await line.filter({ hasText: expected }).waitFor();
  return (await line.textContent()) ?? '';
}

/** Every tile settled: none loading. */
async function tilesSettled(page: Page): Promise<void> {
  await page.locator('[data-report-tile]').first().waitFor();
  await page.waitForFunction((reports) => {
    const { document } = globalThis as unknown as { document: { querySelectorAll(selector: string): { length: number } } };
    return document.querySelectorAll('[data-report-tile]').length === reports && document.querySelectorAll('[data-report-tile][data-state=loading]').length === 0;
  }, REPORT_IDS.length);
}

describe('a viewer with no Intune role assignment', () => {
  it.each(['light', 'contrast'] as const)('sees one calm banner with the reason, once, and no report is asked for (%s theme)', async (theme) => {
    const page = await tab.newPage(theme === 'contrast' ? { forcedColors: 'active' } : { colorScheme: theme });
    const requests = tenantDataRequests(page);
    // The demo's own user of a fresh browser holds no Intune role assignment.
    await page.goto(`${tab.server.base}/tab/`);
    const banner = page.locator('[data-state=no-intune-access]');
    await banner.waitFor();
    expect(await banner.count()).toBe(1);
    expect(await banner.textContent()).toMatch(/^No tenant data to show you\s*You hold no Intune role assignment/);
    expect(await viewerLine(page, /no Intune access/)).toMatch(/^Signed in as .+ · no Intune access$/);
    // No tile, no red error, no repeated explanation.
    expect(await page.locator('[data-report-tile]').count()).toBe(0);
    expect(await page.locator('[data-state=api-error], [data-state=failed], [data-state=load-error]').count()).toBe(0);
    expect(await page.getByText(/You hold no Intune role assignment/).count()).toBe(1);
    expect(await seriousViolations(page, { forcedColors: theme === 'contrast' })).toEqual([]);
    await saveScreenshot(page, `viewer-scope-no-access-${theme}`);

    // A report opened from the navigation says the same, once, and reads nothing either.
    await page.locator('#tab-security-posture').click();
    await page.locator('[data-state=no-intune-access]').waitFor();
    expect(await page.getByText(/You hold no Intune role assignment/).count()).toBe(1);
    expect(requests).toEqual([]);
  });
});

describe('a viewer limited to scope tag Europe', () => {
  it('sees a report outside their scope as a neutral note with the reason, in the tile and on the report page, never a load error', async () => {
    const page = await tab.newPage();
    await page.addInitScript(
      ([key]) => (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem(key!, 'regional'),
      [DEMO_PERSONA_KEY],
    );
    await page.goto(`${tab.server.base}/tab/`);
    expect(await viewerLine(page, /scope tag Europe/)).toMatch(/^Signed in as .+ · scope tag Europe$/);
    await tilesSettled(page);
    for (const id of WHOLE_TENANT_ONLY) {
      const tile = page.locator(`[data-report-tile=${id}]`);
      expect(await tile.getAttribute('data-state'), id).toBe('outside-scope');
      const note = tile.locator('[data-state=outside-scope]');
      expect(await note.textContent(), id).toMatch(/^Not in your scope \(scope tag Europe\)/);
      expect(await note.textContent(), id).toMatch(/covers the whole tenant/);
    }
    for (const id of IN_EUROPE) expect(await page.locator(`[data-report-tile=${id}]`).getAttribute('data-state'), id).toMatch(/^(loaded|empty)$/);
    expect(await page.locator('[data-state=api-error], [data-report-tile][data-state=failed]').count()).toBe(0);
    await saveScreenshot(page, 'viewer-scope-regional-overview');

    await page
      .locator('[data-report-tile=connector-health]')
      .getByRole('button', { name: /^Open / })
      .click();
    const note = page.locator('article [data-state=outside-scope]');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Not in your scope \(scope tag Europe\).*covers the whole tenant/);
    expect(await page.locator('[data-state=api-error], [data-state=load-error]').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('reads as a note in the dark theme too, its text as legible as the page’s', async () => {
    const page = await tab.newPage({ colorScheme: 'dark' });
    await page.addInitScript(
      ([key]) => (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem(key!, 'regional'),
      [DEMO_PERSONA_KEY],
    );
    await page.goto(`${tab.server.base}/tab/`);
    await tilesSettled(page);
    expect(await page.locator('[data-report-tile=connector-health]').getAttribute('data-state')).toBe('outside-scope');
    expect(await seriousViolations(page)).toEqual([]);
    await saveScreenshot(page, 'viewer-scope-regional-overview-dark');
  });
});

describe('the demo’s sign-in as …', () => {
  it('offers the four personas in plain words, reached by keyboard, and switching signs in again and reloads the data', async () => {
    const page = await tab.newPage();
    const asked = signIns(page);
    await page.goto(`${tab.server.base}/tab/`);
    await page.locator('[data-state=no-intune-access]').waitFor();
    const select = page.getByLabel('Demo: sign in as');
    const labels = await select.locator('option').allTextContents();
    expect(labels.slice(1)).toEqual([
      'Central IT (Intune role, whole tenant)',
      'Europe IT (Intune role, scope tag Europe)',
      'No Intune role',
      'Microsoft Entra Intune Administrator',
    ]);

    // Reached with Tab from the page's start, and switched with the arrow keys.
    let focused = false;
    for (let press = 0; press < 10 && !focused; press += 1) {
      await page.keyboard.press('Tab');
      focused = await select.evaluate((element) => (element.ownerDocument.activeElement as unknown) === element);
    }
    expect(focused).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await viewerLine(page, /whole tenant/)).toMatch(/^Signed in as .+ · whole tenant$/);
    await tilesSettled(page);
    expect(await page.locator('[data-state=no-intune-access]').count()).toBe(0);
    // Every scope tag, but a tenant-wide report only as the role reads it: Read Only Operator reads no connector report.
    expect(await page.locator('[data-report-tile=escrow-gaps]').getAttribute('data-state')).toBe('loaded');
    expect(await page.locator('[data-report-tile=connector-health]').getAttribute('data-state')).toBe('outside-scope');
    expect(asked.at(-1)).toBe('central');

    await select.selectOption('regional');
    expect(await viewerLine(page, /scope tag Europe/)).toMatch(/· scope tag Europe$/);
    await tilesSettled(page);
    expect(await page.locator('[data-report-tile=connector-health]').getAttribute('data-state')).toBe('outside-scope');
    expect(asked.at(-1)).toBe('regional');

    // Remembered for the session: a reload signs in as the same persona.
    await page.reload();
    expect(await viewerLine(page, /scope tag Europe/)).toMatch(/· scope tag Europe$/);
    expect(await page.getByLabel('Demo: sign in as').inputValue()).toBe('regional');
    expect(asked.at(-1)).toBe('regional');

    // A persona with no Intune role assignment gets the one banner.
    await page.getByLabel('Demo: sign in as').selectOption('no-role');
    await page.locator('[data-state=no-intune-access]').waitFor();
    expect(await page.locator('[data-report-tile]').count()).toBe(0);
    expect(asked.at(-1)).toBe('no-role');
  });

  it('signs in as the Entra Intune Administrator, whose role reads all Intune data: every report, the tenant-wide ones too', async () => {
    const page = await tab.newPage();
    const asked = signIns(page);
    await page.goto(`${tab.server.base}/tab/`);
    await page.getByLabel('Demo: sign in as').selectOption('intune-administrator');
    expect(await viewerLine(page, /whole tenant/)).toMatch(/· whole tenant$/);
    await tilesSettled(page);
    expect(await page.locator('[data-report-tile=connector-health]').getAttribute('data-state')).toBe('loaded');
    expect(await page.locator('[data-report-tile=escrow-gaps]').getAttribute('data-state')).toBe('loaded');
    expect(asked.at(-1)).toBe('intune-administrator');
  });
});

describe('with the viewer scope off', () => {
  it('the header names the viewer and says nothing of a scope; GET /api/me answers no scope, and only with a token', async () => {
    const unscoped: TabServer = await tab.startServer(harness.client(), { now: () => now });
    const token = ((await (await fetch(`${unscoped.base}/api/demo/token?as=regional`)).json()) as { token: string }).token;
    expect((await fetch(`${unscoped.base}/api/me`)).status).toBe(401);
    const me = (await (await fetch(`${unscoped.base}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as { name: string; scope: unknown };
    expect(me).toEqual({ name: decodeJwt(token).name, scope: null });

    const page = await tab.newPage();
    await page.addInitScript(
      ([key]) => (globalThis as unknown as { sessionStorage: { setItem(k: string, v: string): void } }).sessionStorage.setItem(key!, 'regional'),
      [DEMO_PERSONA_KEY],
    );
    await page.goto(`${unscoped.base}/tab/`);
    expect(await viewerLine(page, /Signed in as/)).toBe(`Signed in as ${String(decodeJwt(token).name)}`);
    await tilesSettled(page);
    // Everyone sees the whole tenant: the regional administrator too.
    expect(await page.locator('[data-report-tile=connector-health]').getAttribute('data-state')).toBe('loaded');
  });
});

describe('GET /api/me with the viewer scope on', () => {
  it('answers each viewer’s name and scope in words, and a viewer of no scope the reason', async () => {
    const as = async (persona: string | null) => {
      const token = ((await (await fetch(`${tab.server.base}/api/demo/token${persona ? `?as=${persona}` : ''}`)).json()) as { token: string }).token;
      return (await (await fetch(`${tab.server.base}/api/me`, { headers: { authorization: `Bearer ${token}` } })).json()) as Record<string, unknown>;
    };
    expect(await as('central')).toMatchObject({ scope: { kind: 'tenant', description: 'the whole tenant', explanation: null } });
    expect(await as('regional')).toMatchObject({ scope: { kind: 'tags', description: 'scope tag Europe', explanation: null } });
    expect(await as(null)).toMatchObject({ scope: { kind: 'none', description: 'nothing', explanation: expect.stringMatching(/^You hold no Intune role assignment/) } });
    // The Entra role in the token's wids counts here as it does on the report routes.
    expect(await as('intune-administrator')).toMatchObject({ scope: { kind: 'tenant', description: 'the whole tenant', explanation: null } });
  });
});
