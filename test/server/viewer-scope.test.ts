import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleApp } from '../../src/server/app-assembly.js';
import { OUT_OF_SCOPE_CODE } from '../../src/server/viewer-scope-access.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { AREA_READS } from '../../src/core/viewer-scope/areas.js';
import { REBOOT_ONLY_ROLE, VIEWER_SCOPE_DEMO } from '../../src/core/viewer-scope/demo.js';
import { ENTRA_ROLE_IDS } from '../../src/core/viewer-scope/entra-roles.js';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { ROLE_DEFINITIONS_READ } from '../../src/core/viewer-scope/reads.js';
import { APPLIES_NOT_READ_BY_ROLE } from '../../src/core/applies/scope.js';
import type { AppliesResult } from '../../src/core/applies/applies-result.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import type { ReportSummary } from '../../src/core/reports/report-summary.js';
import type { AuditPage } from '../../src/core/triage/audit-page.js';
import type { TriageView } from '../../src/core/triage/triage-book.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { withEuropeRoleActions, withoutEuropeAnalyticsRead } from '../support/demo-roles.js';
import { simulatorConnection, useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });

interface Started {
  base: string;
  requests: () => number;
  close(): Promise<void>;
}

/**
 * The server as `npm start` assembles it on the demo tenant, without the tab's files, with the viewer
 * scope on or off, and with complete coverage (`GRAPH_BETA_COVERAGE=true`) when asked.
 */
async function start(viewerScope: boolean, betaCoverage = false): Promise<Started> {
  // With the scope on, the client reads the objects' scope tags where only beta gives them, as `npm start` opens it.
  const graph = harness.client({ ...(betaCoverage ? { betaCoverage } : {}), ...(viewerScope ? { scopeTags: true } : {}) });
  const connection = simulatorConnection(harness.sim, graph);
  const directory = await mkdtemp(join(tmpdir(), 'dmhealth-scope-'));
  const store = await FileStateStore.open(directory, { tenant: connection.tenantKey });
  const { server, services } = assembleApp({ connection, store, log: () => {}, ...(viewerScope ? { viewerScope: true } : {}) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => harness.sim.graph.requests.length,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services.reports.settled();
      await connection.transport.close();
      await store.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

let scoped: Started;
let unscoped: Started;
const tokens: Record<'central' | 'regional' | 'intune-administrator' | 'nobody', string> = { central: '', regional: '', 'intune-administrator': '', nobody: '' };

beforeAll(async () => {
  [scoped, unscoped] = await Promise.all([start(true), start(false)]);
  for (const who of ['central', 'regional', 'intune-administrator'] as const)
    tokens[who] = ((await (await fetch(`${scoped.base}/api/demo/token?as=${who}`)).json()) as { token: string }).token;
  tokens.nobody = ((await (await fetch(`${scoped.base}/api/demo/token`)).json()) as { token: string }).token;
});
afterAll(async () => {
  await Promise.all([scoped?.close(), unscoped?.close()]);
});

const get = (server: Started, path: string, who: keyof typeof tokens) => fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${tokens[who]}` } });
const post = (server: Started, path: string, who: keyof typeof tokens, body: unknown) =>
  fetch(`${server.base}${path}`, { method: 'POST', headers: { authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
/** The demo's two administrators signed in to a server of a test's own. */
async function signIn(server: Started): Promise<Record<'central' | 'regional', (path: string) => Promise<Response>>> {
  const token = async (who: string) => ((await (await fetch(`${server.base}/api/demo/token?as=${who}`)).json()) as { token: string }).token;
  const [central, regional] = await Promise.all([token('central'), token('regional')]);
  const as = (bearer: string) => (path: string) => fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${bearer}` } });
  return { central: as(central), regional: as(regional) };
}
const europe = [...VIEWER_SCOPE_DEMO.europePolicies, ...VIEWER_SCOPE_DEMO.bothPolicies].sort();
const policiesOf = (result: Pick<ReportResult, 'rows'>) => [...new Set(result.rows.map((row) => String(row.policy)))].sort();

describe('the demo sign-in as an Intune administrator', () => {
  it('signs in as the central or the regional administrator by name', async () => {
    const { central, regional } = harness.sim.tenant.demoAdministrators!;
    expect(decodeJwt(tokens.central).oid).toBe(central);
    expect(decodeJwt(tokens.regional).oid).toBe(regional);
    expect(decodeJwt(tokens.nobody).oid).not.toBe(central);
  });
});

describe('Microsoft Entra roles, from the token’s wids claim', () => {
  const signInAs = async (who: string) => ((await (await fetch(`${scoped.base}/api/demo/token?as=${who}`)).json()) as { token: string }).token;
  const withToken = (token: string, path: string) => fetch(`${scoped.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const tokenWithWids = (wids: unknown) => harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE], claims: { wids } });

  it('the demo sign-in’s four people: the Intune Administrator’s token carries that Entra role, the others none', async () => {
    const { 'no-role': noRole, 'intune-administrator': intuneAdministrator } = harness.sim.tenant.demoAdministrators!;
    const admin = decodeJwt(await signInAs('intune-administrator'));
    expect(admin.oid).toBe(intuneAdministrator);
    expect(admin.wids).toEqual([ENTRA_ROLE_IDS.intuneAdministrator]);
    const nobody = decodeJwt(await signInAs('no-role'));
    expect(nobody.oid).toBe(noRole);
    expect(nobody).not.toHaveProperty('wids');
    expect(decodeJwt(tokens.central)).not.toHaveProperty('wids');
  });

  it('the Intune Administrator, with no Intune role assignment, sees the whole tenant, tenant-wide reports too', async () => {
    const token = await signInAs('intune-administrator');
    const central = await json<ReportResult>(await get(scoped, '/api/reports/security-posture', 'central'));
    const admin = await json<ReportResult>(await withToken(token, '/api/reports/security-posture'));
    expect(admin.rows).toEqual(central.rows);
    expect(admin.notice).toBe(central.notice);
    for (const id of ['connector-health', 'admin-approval']) expect((await withToken(token, `/api/reports/${id}`)).status).toBe(200);
  });

  it('the user of no role sees nothing, and is told they hold neither an Intune role assignment nor an Entra role that reads Intune data', async () => {
    const refused = await withToken(await signInAs('no-role'), '/api/reports/security-posture');
    expect(refused.status).toBe(403);
    expect(await json(refused)).toMatchObject({
      error: { code: OUT_OF_SCOPE_CODE, message: expect.stringMatching(/^You hold no Intune role assignment and no Microsoft Entra role that reads Intune data/) },
    });
  });

  it('Global Reader reads the whole tenant; Reports Reader (Intune audit data only) and values that are not role template ids open nothing', async () => {
    expect((await withToken(await tokenWithWids([ENTRA_ROLE_IDS.globalReader]), '/api/reports/connector-health')).status).toBe(200);
    expect((await withToken(await tokenWithWids([ENTRA_ROLE_IDS.globalReader.toUpperCase()]), '/api/reports/connector-health')).status).toBe(200);
    for (const wids of [
      [ENTRA_ROLE_IDS.reportsReader],
      [1],
      [`{${ENTRA_ROLE_IDS.globalAdministrator}}`],
      ENTRA_ROLE_IDS.globalAdministrator,
      [[ENTRA_ROLE_IDS.globalAdministrator]],
      [null],
    ])
      expect((await withToken(await tokenWithWids(wids), '/api/reports/connector-health')).status, JSON.stringify(wids)).toBe(403);
  });
});

describe('with the viewer scope off (the default)', () => {
  it('the regional administrator sees the whole report, as everyone does', async () => {
    const central = await json<ReportResult>(await get(unscoped, '/api/reports/security-posture', 'central'));
    const regional = await json<ReportResult>(await get(unscoped, '/api/reports/security-posture', 'regional'));
    expect(regional.rows).toHaveLength(central.rows.length);
    expect(regional.findings).toEqual(central.findings);
    expect(regional.notice).toBe(central.notice);
    expect((await get(unscoped, '/api/reports/connector-health', 'nobody')).status).toBe(200);
    // Entra roles change nothing with the scope off: every holder of the app role sees every report.
    for (const wids of [[ENTRA_ROLE_IDS.reportsReader], [1]]) {
      const token = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE], claims: { wids } });
      expect((await fetch(`${unscoped.base}/api/reports/connector-health`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    }
    expect((await get(unscoped, '/api/reports/setting-conflicts', 'central')).status).toBe(200);
    const applies = await get(unscoped, '/api/applies?q=CONTOSO-0040', 'regional');
    expect(applies.status).toBe(200);
    expect(await json(applies)).not.toHaveProperty('scope');
  });
});

describe('with the viewer scope on (VIEWER_SCOPE=intune-rbac)', () => {
  it('the report: the central administrator sees it whole, the regional one Europe’s policies and their findings only', async () => {
    const whole = await json<ReportResult>(await get(scoped, '/api/reports/security-posture', 'central'));
    const regional = await json<ReportResult>(await get(scoped, '/api/reports/security-posture', 'regional'));
    expect(policiesOf(whole)).toEqual(expect.arrayContaining([...europe, ...VIEWER_SCOPE_DEMO.americasPolicies]));
    expect(policiesOf(regional)).toEqual(europe);
    expect(regional.findings.map((finding) => finding.subjectName).sort()).toEqual(['ASR - Standard protection', 'Security baseline for Windows (23H2)']);
    expect(regional.notice).toMatch(/^Showing what your Intune role assignments let you see: scope tag Europe/);
  });

  it('the preview and the summary: the same rows and counts as the scoped report, and no tenant-wide trend', async () => {
    const preview = await json<ReportResult>(await get(scoped, '/api/reports/security-posture/preview', 'regional'));
    expect(policiesOf(preview)).toEqual(europe);
    const summary = await json<{ findings: number; trend: unknown[] }>(await get(scoped, '/api/reports/security-posture/summary', 'regional'));
    expect(summary.findings).toBe(2);
    expect(summary.trend).toEqual([]);
    const whole = await json<{ findings: number }>(await get(scoped, '/api/reports/security-posture/summary', 'central'));
    expect(whole.findings).toBeGreaterThan(2);
  });

  it('the window API: only the rows of the scope, counted as the scope counts them', async () => {
    const window = await json<{ total: number; rows: Array<Record<string, unknown>> }>(await get(scoped, '/api/reports/security-posture/rows', 'regional'));
    expect(window.total).toBe(window.rows.length);
    expect([...new Set(window.rows.map((row) => String(row.policy)))].sort()).toEqual(europe);
    const whole = await json<{ total: number }>(await get(scoped, '/api/reports/security-posture/rows', 'central'));
    expect(whole.total).toBeGreaterThan(window.total);
  });

  it('the CSV: the scope’s rows only', async () => {
    const csv = await (await get(scoped, '/api/reports/security-posture.csv', 'regional')).text();
    for (const name of europe) expect(csv).toContain(name);
    expect(csv).not.toContain(VIEWER_SCOPE_DEMO.americasPolicies[0]);
    expect(await (await get(scoped, '/api/reports/security-posture.csv', 'central')).text()).toContain(VIEWER_SCOPE_DEMO.americasPolicies[0]);
  });

  it('a tenant-wide report no Intune role permission reads (connectors, multi admin approval, setting conflicts) is refused to both Intune administrators with why, and shown to the Entra Intune Administrator', async () => {
    for (const id of ['connector-health', 'admin-approval', 'setting-conflicts']) {
      for (const who of ['regional', 'central'] as const) {
        const refused = await get(scoped, `/api/reports/${id}`, who);
        expect(refused.status, `${id} ${who}`).toBe(403);
        expect(await json(refused)).toMatchObject({ error: { status: 403, code: OUT_OF_SCOPE_CODE, message: expect.stringMatching(/covers the whole tenant/) } });
      }
      expect((await get(scoped, `/api/reports/${id}`, 'intune-administrator')).status).toBe(200);
    }
    // Endpoint analytics opens to the central administrator by their role's read, saying so.
    const analytics = await json<ReportResult>(await get(scoped, '/api/reports/startup-reliability', 'central'));
    expect(analytics.notice).toContain('your Intune role Read Only Operator grants Endpoint Analytics/Read');
  });

  it('endpoint analytics (report 6) is shown whole to the regional administrator, whose role grants Endpoint Analytics read, saying so', async () => {
    const central = await json<ReportResult>(await get(scoped, '/api/reports/startup-reliability', 'central'));
    const response = await get(scoped, '/api/reports/startup-reliability', 'regional');
    expect(response.status).toBe(200);
    const regional = await json<ReportResult>(response);
    expect(regional.rows).toEqual(central.rows);
    expect(regional.findings).toEqual(central.findings);
    expect(regional.notice).toContain(`your Intune role ${VIEWER_SCOPE_DEMO.europeRole} grants Endpoint Analytics/Read`);
    expect((await get(scoped, '/api/reports/startup-reliability/summary', 'regional')).status).toBe(200);
    // Its triage follows the report: theirs to read, as it is shown to them whole.
    expect((await get(scoped, '/api/reports/startup-reliability/triage', 'regional')).status).toBe(200);
    expect((await get(scoped, '/api/reports/startup-reliability', 'nobody')).status).toBe(403);
  });

  it('without Endpoint Analytics read in their role, the regional administrator is refused report 6 with that reason; nothing else changes', async () => {
    const restore = withoutEuropeAnalyticsRead(harness.sim.tenant);
    const server = await start(true);
    try {
      const as = await signIn(server);
      const refused = await as.regional('/api/reports/startup-reliability');
      expect(refused.status).toBe(403);
      expect(await json(refused)).toMatchObject({
        error: { code: OUT_OF_SCOPE_CODE, message: expect.stringMatching(/grants Endpoint Analytics\/Read\. None of your Intune role assignments' roles grants it/) },
      });
      expect((await as.central('/api/reports/startup-reliability')).status).toBe(200);
      expect(policiesOf(await json<ReportResult>(await as.regional('/api/reports/security-posture')))).toEqual(europe);
    } finally {
      restore();
      await server.close();
    }
  });

  it('role definitions that cannot be read open no report to anyone through an Intune role, tagged or tenant-wide, and say they could not be read', async () => {
    const removeFault = harness.sim.faults.add({ path: ROLE_DEFINITIONS_READ.path, status: 403, times: 100 });
    const server = await start(true);
    try {
      const as = await signIn(server);
      // Not known either way for either administrator: their reports came by their roles' reads.
      for (const who of ['regional', 'central'] as const)
        for (const report of ['startup-reliability', 'assignment-hygiene', 'security-posture', 'escrow-gaps']) {
          const refused = await as[who](`/api/reports/${report}`);
          expect(refused.status, `${who} ${report}`).toBe(403);
          expect(await json(refused)).toMatchObject({ error: { code: OUT_OF_SCOPE_CODE, message: expect.stringMatching(/role definitions could not be read/) } });
        }
    } finally {
      removeFault();
      await server.close();
    }
  });

  it('the Europe service desk, whose role grants only Reboot now, is refused reports 2, 3 and 4 naming the read its role lacks; with the scope off they see them whole', async () => {
    const desk = [...harness.sim.tenant.groups.values()].find((group) => group.displayName === 'Intune Europe Service Desk')!;
    const token = await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE], claims: { oid: desk.members[0]!.id } });
    const as = (server: Started, path: string) => fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const lacks = {
      'assignment-hygiene': 'Device configurations/Read, Device compliance policies/Read and Mobile apps/Read',
      'security-posture': 'Security baselines/Read',
      'escrow-gaps': 'Managed devices/Read',
    };
    for (const [report, permissions] of Object.entries(lacks)) {
      const refused = await as(scoped, `/api/reports/${report}`);
      expect(refused.status, report).toBe(403);
      const message = `None of your Intune role ${REBOOT_ONLY_ROLE.displayName} grants ${permissions}, so it is not shown to you (your scope: scope tag Europe).`;
      expect(await json(refused), report).toMatchObject({ error: { code: OUT_OF_SCOPE_CODE, message: expect.stringContaining(message) } });
      expect((await as(scoped, `/api/reports/${report}/summary`)).status, report).toBe(403);
      // The scope off: every viewer sees every report, whatever their roles.
      expect((await as(unscoped, `/api/reports/${report}`)).status, report).toBe(200);
    }
    // The regional administrator, of the same tag, whose role reads them all, is shown them.
    for (const report of Object.keys(lacks)) expect((await get(scoped, `/api/reports/${report}`, 'regional')).status, report).toBe(200);
    // The tab's header says once why they see nothing: their roles open no report.
    expect(await json(await as(scoped, '/api/me'))).toMatchObject({
      scope: { kind: 'tags', explanation: expect.stringContaining(`Your Intune role ${REBOOT_ONLY_ROLE.displayName} grants none of the read permissions this app's reports need`) },
    });
    expect(await json(await get(scoped, '/api/me', 'regional'))).toMatchObject({ scope: { kind: 'tags', explanation: null } });
    // "What applies" lists report 2's objects and the device: answered nothing before any read, in the same words for a device of their tag and for none.
    for (const question of [VIEWER_SCOPE_DEMO.europeDevice, 'NO-SUCH-DEVICE']) {
      const answer = await json<AppliesResult>(await as(scoped, `/api/applies?q=${encodeURIComponent(question)}`));
      expect(answer, question).toEqual({ kind: 'notFound', query: question, words: APPLIES_NOT_READ_BY_ROLE, requests: 0 });
    }
  });

  it('a role without Mobile apps/Read: report 2 (policies and apps) is refused, naming it; reports 3 and 4 are shown as before', async () => {
    const restore = withEuropeRoleActions(harness.sim.tenant, (actions) => actions.filter((action) => action !== AREA_READS.mobileApps.action));
    const server = await start(true);
    try {
      const as = await signIn(server);
      const refused = await as.regional('/api/reports/assignment-hygiene');
      expect(refused.status).toBe(403);
      expect(await json(refused)).toMatchObject({
        error: {
          code: OUT_OF_SCOPE_CODE,
          message: expect.stringContaining(`None of your Intune role ${VIEWER_SCOPE_DEMO.europeRole} grants Mobile apps/Read, so it is not shown to you`),
        },
      });
      expect(policiesOf(await json<ReportResult>(await as.regional('/api/reports/security-posture')))).toEqual(europe);
      expect((await as.regional('/api/reports/escrow-gaps')).status).toBe(200);
      expect((await as.central('/api/reports/assignment-hygiene')).status).toBe(200);
    } finally {
      restore();
      await server.close();
    }
  });

  it('a viewer with no Intune role assignment sees no tenant data on any surface, and is told why', async () => {
    for (const path of [
      '/api/reports/security-posture',
      '/api/reports/security-posture/preview',
      '/api/reports/security-posture/summary',
      '/api/reports/security-posture/rows',
      '/api/reports/security-posture.csv',
      '/api/applies?q=CONTOSO-0040',
      '/api/reports/security-posture/triage',
      // How many records a load has read: counts of the tenant too.
      '/api/reports/security-posture/progress',
    ]) {
      const response = await get(scoped, path, 'nobody');
      expect(response.status, path).toBe(403);
      expect(await json(response)).toMatchObject({ error: { code: OUT_OF_SCOPE_CODE, message: expect.stringMatching(/^You hold no Intune role assignment/) } });
    }
  });

  it('a load’s progress: its counts to a viewer with a scope, and none to one without', async () => {
    for (const who of ['central', 'regional'] as const) {
      const progress = await get(scoped, '/api/reports/security-posture/progress', who);
      expect(progress.status, who).toBe(200);
      expect(await json(progress)).toMatchObject({ report: 'security-posture', loading: expect.any(Boolean), sources: expect.any(Array) });
    }
    expect((await get(unscoped, '/api/reports/security-posture/progress', 'nobody')).status).toBe(200);
  });

  it('what applies to a Europe device: the central administrator sees every object, the regional one only those tagged Europe, and how many more', async () => {
    const device = VIEWER_SCOPE_DEMO.europeDevice;
    const central = await json<AppliesResult>(await get(scoped, `/api/applies?q=${device}`, 'central'));
    const regional = await json<AppliesResult>(await get(scoped, `/api/applies?q=${device}`, 'regional'));
    if (central.kind !== 'found' || regional.kind !== 'found') throw new Error(`not found: ${JSON.stringify([central, regional]).slice(0, 400)}`);
    const names = (result: typeof central) => result.answer.groups.flatMap((group) => group.entries.map((entry) => entry.name)).sort();
    const conflicting = (result: typeof central) =>
      result.answer.conflicts.state === 'checked' ? result.answer.conflicts.settings.flatMap((setting) => setting.policies.map((policy) => policy.name)) : [];

    // The central administrator: the whole tenant, as with the scope off; Americas' and Default's objects and their conflicts too.
    expect(central.scope).toBeUndefined();
    // The Europe policies that reach the device (with Device.Read.All its own groups are known, so a
    // policy of a device group it is not in does not reach it).
    const europeReaching: string[] = VIEWER_SCOPE_DEMO.europePolicies.filter((name) => names(central).includes(name));
    expect(europeReaching.length).toBeGreaterThan(0);
    expect(names(central)).toEqual(expect.arrayContaining([...europeReaching, VIEWER_SCOPE_DEMO.americasPolicies[0], 'Windows - Compliance']));
    // The whole tenant's answer weighs the conflicts between every policy that reaches the device, of any tag.
    expect(conflicting(central).length).toBeGreaterThan(0);
    expect(conflicting(central).some((name) => !europeReaching.includes(name))).toBe(true);

    // The regional one: the policies tagged Europe only, a line saying how many more reach it, and no conflict with a policy not shown.
    expect(names(regional)).toEqual([...europeReaching].sort());
    const hidden = names(central).length - names(regional).length;
    expect(regional.scope).toEqual({ scope: 'scope tag Europe', hidden, words: expect.stringContaining(`${hidden} more assigned objects reach this device but are not shown`) });
    expect(regional.answer.notes[0]).toBe(regional.scope!.words);
    // The device and its scope tags are read first for the scoped viewer, and counted.
    expect(regional.requests).toBeGreaterThanOrEqual(1);
    expect(regional.answer.conflicts).toMatchObject({ state: 'checked', settings: [] });
    expect(
      regional.answer.counts.applies +
        regional.answer.counts.excluded +
        regional.answer.counts.dependsOnFilter +
        regional.answer.counts.unknown +
        regional.answer.counts.notForPlatform,
    ).toBe(europeReaching.length);
  });

  it('what applies to a device outside the regional administrator’s tags is refused in the same words as one that does not exist', async () => {
    const outside = await json<AppliesResult>(await get(scoped, `/api/applies?q=${VIEWER_SCOPE_DEMO.americasDevice}`, 'regional'));
    const missing = await json<AppliesResult>(await get(scoped, '/api/applies?q=NO-SUCH-DEVICE', 'regional'));
    const user = await json<AppliesResult>(await get(scoped, `/api/applies?q=${encodeURIComponent(APPLIES_DEMO.user)}`, 'regional'));
    const wordsOf = (result: AppliesResult, query: string) => (result.kind === 'notFound' ? result.words.replace(`"${query}"`, '"…"') : `not refused: ${result.kind}`);
    expect(outside).toMatchObject({ kind: 'notFound', query: VIEWER_SCOPE_DEMO.americasDevice, requests: 0 });
    expect(outside).toEqual({ ...missing, query: VIEWER_SCOPE_DEMO.americasDevice, words: outside.kind === 'notFound' ? outside.words : '' });
    expect(wordsOf(outside, VIEWER_SCOPE_DEMO.americasDevice)).toBe(wordsOf(missing, 'NO-SUCH-DEVICE'));
    expect(wordsOf(user, APPLIES_DEMO.user)).toBe(wordsOf(missing, 'NO-SUCH-DEVICE'));
    expect(wordsOf(missing, 'NO-SUCH-DEVICE')).toMatch(/^"…" names no device your Intune role assignments let you see \(scope tag Europe\)/);
    // The central administrator is answered about it.
    expect(await json<AppliesResult>(await get(scoped, `/api/applies?q=${VIEWER_SCOPE_DEMO.americasDevice}`, 'central'))).toMatchObject({ kind: 'found' });
  });

  it('what applies: a device outside the regional administrator’s tags makes the same Graph requests as one that does not exist, and nothing of the whole tenant', async () => {
    // A server of its own, so that no other question has loaded reports 2 and 3 into its cache.
    const own = await start(true);
    try {
      const { regional } = await signIn(own);
      // The viewer's role assignments are read once, by the first question; the two compared come after.
      await regional('/api/applies?q=WARM-UP');
      const shapes = async (query: string) => {
        harness.sim.graph.clearLog();
        const body = await json<AppliesResult>(await regional(`/api/applies?q=${query}`));
        const made = harness.sim.graph.requests.map((request) => `${request.method} ${request.path}?${decodeURIComponent(request.query.replace(/\+/g, ' ')).replace(query, '…')}`);
        return { body, made };
      };
      const outside = await shapes(VIEWER_SCOPE_DEMO.americasDevice);
      const missing = await shapes('NO-SUCH-DEVICE');
      expect(outside.made).toEqual(missing.made);
      expect(outside.made).toEqual([expect.stringMatching(/^GET \/beta\/deviceManagement\/managedDevices\?\$filter=deviceName eq '…'&\$select=.*roleScopeTagIds/)]);
      expect({ ...outside.body, query: '…', words: outside.body.kind === 'notFound' ? outside.body.words.replace(VIEWER_SCOPE_DEMO.americasDevice, '…') : '' }).toEqual({
        ...missing.body,
        query: '…',
        words: missing.body.kind === 'notFound' ? missing.body.words.replace('NO-SUCH-DEVICE', '…') : 'not refused',
      });
      // A device of theirs is answered, its question read as the whole tenant's is.
      const europe = await shapes(VIEWER_SCOPE_DEMO.europeDevice);
      expect(europe.body).toMatchObject({ kind: 'found', scope: { scope: 'scope tag Europe' } });
      expect(europe.made.length).toBeGreaterThan(1);
    } finally {
      await own.close();
    }
  });

  it('reads the role assignments once for every viewer while they are fresh', async () => {
    harness.sim.graph.clearLog();
    await get(scoped, '/api/reports/security-posture', 'central');
    await get(scoped, '/api/reports/security-posture', 'regional');
    await get(scoped, '/api/reports/security-posture', 'nobody');
    expect(harness.sim.graph.requests.filter((request) => request.path.endsWith('/roleAssignments'))).toHaveLength(0);
  });
});

describe('reports 2 and 4, whose rows carry their objects’ scope tags where Graph gives them', () => {
  /** With the scope on and complete coverage: every object read on beta, where each carries its tags. */
  let beta: Started;
  beforeAll(async () => {
    beta = await start(true, true);
  });
  afterAll(async () => {
    await beta?.close();
  });

  const namesOf = (result: Pick<ReportResult, 'rows'>) => result.rows.map((row) => String(row.name)).sort();
  const subjectsOf = (result: Pick<ReportResult, 'findings'>) => result.findings.map((finding) => finding.subjectName).sort();
  const ROWS = '/api/reports/assignment-hygiene/rows';
  type Window = { total: number; rows: Array<Record<string, unknown>> };

  it('report 2 on /v1.0: the regional administrator sees Europe’s objects read with their tags and their findings in the report, the window API and the CSV; the central one all', async () => {
    const expected = ['Clean up temp folders', 'Clear Teams cache', ...europe].sort();
    const regional = await json<ReportResult>(await get(scoped, '/api/reports/assignment-hygiene', 'regional'));
    expect(namesOf(regional)).toEqual(expected);
    expect(subjectsOf(regional)).toEqual(['Platform script: Clean up temp folders', 'Remediation: Clear Teams cache']);
    expect(regional.notice).toMatch(/^Showing what your Intune role assignments let you see: scope tag Europe/);
    const window = await json<Window>(await get(scoped, ROWS, 'regional'));
    expect(window.total).toBe(expected.length);
    expect(window.rows.map((row) => String(row.name)).sort()).toEqual(expected);
    const csv = await (await get(scoped, '/api/reports/assignment-hygiene.csv', 'regional')).text();
    expect(csv).toContain('Clear Teams cache');
    // An Americas object, and a profile read on /v1.0 without its tags (its Europe tag not known): neither shown.
    expect(csv).not.toContain('Collect Defender logs');
    expect(csv).not.toContain('Windows - Kiosk lockdown');

    const central = await json<ReportResult>(await get(scoped, '/api/reports/assignment-hygiene', 'central'));
    const unscopedResult = await json<ReportResult>(await get(unscoped, '/api/reports/assignment-hygiene', 'central'));
    expect(namesOf(central)).toEqual(namesOf(unscopedResult));
    expect(subjectsOf(central)).toEqual(subjectsOf(unscopedResult));
    const centralCsv = await (await get(scoped, '/api/reports/assignment-hygiene.csv', 'central')).text();
    for (const name of ['Collect Defender logs', 'Windows - Kiosk lockdown', 'Clear Teams cache']) expect(centralCsv).toContain(name);
  });

  it('report 2 read on beta: the profiles and apps carry their tags too, so the regional administrator sees Europe’s of every kind', async () => {
    const regional = await json<ReportResult>(await get(beta, '/api/reports/assignment-hygiene', 'regional'));
    expect(namesOf(regional)).toEqual([...VIEWER_SCOPE_DEMO.europeObjects, ...europe].sort());
    expect(subjectsOf(regional)).toEqual([
      'App: Contoso Expenses',
      'Configuration profile: Windows - Kiosk lockdown',
      'Platform script: Clean up temp folders',
      'Remediation: Clear Teams cache',
    ]);
    const csv = await (await get(beta, '/api/reports/assignment-hygiene.csv', 'regional')).text();
    expect(csv).toContain('Windows - Kiosk lockdown');
    expect(csv).not.toContain('Collect Defender logs');
  });

  const europeDevices = Array.from({ length: VIEWER_SCOPE_DEMO.europeDevices }, (_, index) => `CONTOSO-${String(index + 1).padStart(4, '0')}`);

  /** Report 4 as the regional and the central administrator see it on `server`: Europe's devices and their gaps only, every device. */
  async function expectEscrowScoped(server: Started): Promise<void> {
    const regional = await json<ReportResult>(await get(server, '/api/reports/escrow-gaps', 'regional'));
    expect(regional.rows.map((row) => String(row.device)).sort()).toEqual(europeDevices);
    expect(regional.notice).toMatch(/^Showing what your Intune role assignments let you see: scope tag Europe/);
    const ids = new Set(regional.rows.map((row) => row.id));
    expect(regional.findings.length).toBeGreaterThan(0);
    expect(regional.findings.every((finding) => ids.has(finding.subjectId))).toBe(true);
    const window = await json<Window>(await get(server, '/api/reports/escrow-gaps/rows', 'regional'));
    expect(window.total).toBe(europeDevices.length);
    const csv = await (await get(server, '/api/reports/escrow-gaps.csv', 'regional')).text();
    expect(csv).toContain('CONTOSO-0001');
    expect(csv).not.toContain('CONTOSO-0081');
    const summary = await json<ReportSummary>(await get(server, '/api/reports/escrow-gaps/summary', 'regional'));
    expect(summary.findings).toBe(regional.findings.length);

    const central = await json<ReportResult>(await get(server, '/api/reports/escrow-gaps', 'central'));
    expect(central.rows.length).toBeGreaterThan(regional.rows.length + VIEWER_SCOPE_DEMO.americasDevices);
    const inEurope = central.findings.filter((finding) => ids.has(finding.subjectId));
    expect(regional.findings.map((finding) => finding.fingerprint).sort()).toEqual(inEurope.map((finding) => finding.fingerprint).sort());
    expect(await (await get(server, '/api/reports/escrow-gaps.csv', 'central')).text()).toContain('CONTOSO-0081');
  }

  it('report 4 read on beta: the regional administrator sees Europe’s devices and their gaps only, in the report, the window API, the CSV and the summary; the central one every device', async () => {
    await expectEscrowScoped(beta);
  });

  it('report 4 with default coverage: read on beta for the devices’ scope tags only, so the regional administrator sees Europe’s devices and their gaps, not a refusal', async () => {
    await expectEscrowScoped(scoped);
    // What it covers and finds is the /v1.0 read's: the central administrator sees what everyone sees with the scope off.
    const central = await json<ReportResult>(await get(scoped, '/api/reports/escrow-gaps', 'central'));
    const unscopedResult = await json<ReportResult>(await get(unscoped, '/api/reports/escrow-gaps', 'central'));
    expect(central.findings.map((finding) => finding.fingerprint)).toEqual(unscopedResult.findings.map((finding) => finding.fingerprint));
    expect(central.rows.map(({ roleScopeTagIds: _tags, ...row }) => row)).toEqual(unscopedResult.rows);
    expect(central.notice).toBe(unscopedResult.notice);
  });

  it('with the scope off, reports 2 and 4 are whole for everyone, and report 4 reads /v1.0 naming no scope tags; with it on, the same requests with the devices on beta and their tags selected', async () => {
    for (const id of ['assignment-hygiene', 'escrow-gaps']) {
      const central = await json<ReportResult>(await get(unscoped, `/api/reports/${id}`, 'central'));
      const regional = await json<ReportResult>(await get(unscoped, `/api/reports/${id}`, 'regional'));
      expect(regional.rows, id).toEqual(central.rows);
      expect(regional.findings, id).toEqual(central.findings);
      expect(regional.notice, id).toBe(central.notice);
    }
    // Report 4's first load on two fresh servers, one after the other: the same requests, query and all.
    const escrowRequests = async (viewerScope: boolean) => {
      const server = await start(viewerScope);
      try {
        harness.sim.graph.clearLog();
        expect((await get(server, '/api/reports/escrow-gaps', 'central')).status).toBe(200);
        return harness.sim.graph.requests
          .filter((request) => /\/(managedDevices|recoveryKeys|deviceLocalCredentials)$/.test(request.path))
          .map((request) => `${request.path}?${request.query}`)
          .sort();
      } finally {
        await server.close();
      }
    };
    const off = await escrowRequests(false);
    const on = await escrowRequests(true);
    expect(off.length).toBeGreaterThan(0);
    expect(off.some((request) => request.includes('roleScopeTagIds') || request.startsWith('/beta/'))).toBe(false);
    // With the scope on: as many requests, the device list's on its beta twin, its $select the v1.0 one and the tags, no join type.
    expect(on).toHaveLength(off.length);
    const devicesOn = on.filter((request) => request.startsWith('/beta/deviceManagement/managedDevices?'));
    const devicesOff = off.filter((request) => request.startsWith('/v1.0/deviceManagement/managedDevices?'));
    expect(devicesOn).toHaveLength(devicesOff.length);
    const selectOf = (request: string) => new URLSearchParams(request.slice(request.indexOf('?') + 1)).get('$select')!.split(',');
    for (const [index, request] of devicesOn.entries()) expect(selectOf(request)).toEqual([...selectOf(devicesOff[index]!), 'roleScopeTagIds']);
    expect(on.filter((request) => !request.includes('/managedDevices?'))).toEqual(off.filter((request) => !request.includes('/managedDevices?')));
  });
});

describe('triage and history with the viewer scope on', () => {
  const TRIAGE = '/api/reports/security-posture/triage';

  it('a regional viewer accepts and snoozes only findings in their scope tags, and reopens only decisions of objects in them', async () => {
    const whole = await json<ReportResult>(await get(scoped, '/api/reports/security-posture', 'central'));
    const regional = await json<ReportResult>(await get(scoped, '/api/reports/security-posture', 'regional'));
    const mine = regional.findings[0]!;
    const theirs = whole.findings.find((finding) => !regional.findings.some((seen) => seen.fingerprint === finding.fingerprint))!;
    expect(theirs).toBeDefined();

    const accepted = await post(scoped, TRIAGE, 'regional', { action: 'accept', fingerprint: mine.fingerprint, reason: 'Europe: known exception' });
    expect(accepted.status).toBe(200);
    expect((await json<TriageView>(accepted)).decisions.map((decision) => decision.fingerprint)).toEqual([mine.fingerprint]);

    // A finding outside their tags is answered as one that does not exist: the same status and body,
    // so that the answer does not say whether it exists.
    const absent = 'f'.repeat(32);
    const answerOf = async (response: Response) => ({ status: response.status, body: await response.json() });
    for (const action of [
      { action: 'accept', reason: 'not mine to accept' },
      { action: 'snooze', until: '2099-01-01' },
    ]) {
      const refused = await answerOf(await post(scoped, TRIAGE, 'regional', { ...action, fingerprint: theirs.fingerprint }));
      const missing = await answerOf(await post(scoped, TRIAGE, 'regional', { ...action, fingerprint: absent }));
      expect(refused, action.action).toEqual(missing);
      expect(refused).toEqual({ status: 404, body: { error: { status: 404, message: expect.stringMatching(/has no finding with this fingerprint/) } } });
    }

    // The central administrator accepts a finding outside Europe: the regional one may not reopen it,
    // and is answered as for a finding with no decision.
    expect((await post(scoped, TRIAGE, 'central', { action: 'accept', fingerprint: theirs.fingerprint, reason: 'central: known exception' })).status).toBe(200);
    const reopen = await answerOf(await post(scoped, TRIAGE, 'regional', { action: 'reopen', fingerprint: theirs.fingerprint }));
    expect(reopen).toEqual(await answerOf(await post(scoped, TRIAGE, 'regional', { action: 'reopen', fingerprint: absent })));
    expect(reopen).toEqual({ status: 409, body: { error: { status: 409, message: 'This finding is not accepted or snoozed.' } } });
    expect((await json<TriageView>(await get(scoped, TRIAGE, 'central'))).decisions.map((decision) => decision.fingerprint)).toContain(theirs.fingerprint);

    // A report whose objects carry no scope tags is refused as the report itself is.
    const connectors = await json<ReportResult>(await get(scoped, '/api/reports/connector-health', 'intune-administrator'));
    const tenantWide = await post(scoped, '/api/reports/connector-health/triage', 'regional', { action: 'accept', fingerprint: connectors.findings[0]!.fingerprint, reason: 'x' });
    expect(tenantWide.status).toBe(403);
    expect(await json(tenantWide)).toMatchObject({ error: { code: OUT_OF_SCOPE_CODE, message: expect.stringMatching(/covers the whole tenant/) } });
    expect((await get(scoped, '/api/reports/connector-health/triage', 'regional')).status).toBe(403);

    // What each reads back: the regional viewer, the decision and the audit entry of their own scope only; the central one, both.
    const regionalView = await json<TriageView>(await get(scoped, TRIAGE, 'regional'));
    expect(regionalView.decisions.map((decision) => decision.fingerprint)).toEqual([mine.fingerprint]);
    expect(regionalView.audit.map((entry) => entry.fingerprint)).toEqual([mine.fingerprint]);
    expect(regionalView.auditCount).toBe(1);
    const centralView = await json<TriageView>(await get(scoped, TRIAGE, 'central'));
    expect(centralView.decisions.map((decision) => decision.fingerprint).sort()).toEqual([mine.fingerprint, theirs.fingerprint].sort());
    expect(centralView.auditCount).toBe(2);

    const regionalAudit = await json<AuditPage>(await get(scoped, `${TRIAGE}/audit`, 'regional'));
    expect(regionalAudit.total).toBe(1);
    expect(regionalAudit.entries.map((entry) => entry.reason)).toEqual(['Europe: known exception']);
    expect(regionalAudit.people.map((person) => person.objectId)).toEqual([harness.sim.tenant.demoAdministrators!.regional]);
    const centralAudit = await json<AuditPage>(await get(scoped, `${TRIAGE}/audit?person=${harness.sim.tenant.demoAdministrators!.central}`, 'regional'));
    expect(centralAudit.total).toBe(0);
    expect((await json<AuditPage>(await get(scoped, `${TRIAGE}/audit`, 'central'))).total).toBe(2);

    // The summary counts what is accepted within the scope only.
    const regionalSummary = await json<ReportSummary>(await get(scoped, '/api/reports/security-posture/summary', 'regional'));
    expect(regionalSummary.triaged).toEqual({ accepted: 1, snoozed: 0 });
    expect(regionalSummary.findings).toBe(regional.findings.length - 1);
    expect((await json<ReportSummary>(await get(scoped, '/api/reports/security-posture/summary', 'central'))).triaged).toEqual({ accepted: 2, snoozed: 0 });

    // The regional viewer reopens their own decision.
    expect((await post(scoped, TRIAGE, 'regional', { action: 'reopen', fingerprint: mine.fingerprint })).status).toBe(200);
  });

  it('the history: a regional viewer gets no trend and no changes, which count the whole tenant; the central one gets both', async () => {
    await get(scoped, '/api/reports/security-posture?refresh=true', 'central');
    const central = await json<ReportSummary>(await get(scoped, '/api/reports/security-posture/summary', 'central'));
    expect(central.trend.length).toBeGreaterThanOrEqual(2);
    expect(central.changes).not.toBeNull();
    const regional = await json<ReportSummary>(await get(scoped, '/api/reports/security-posture/summary', 'regional'));
    expect(regional.trend).toEqual([]);
    expect(regional.changes).toBeNull();
  });
});
