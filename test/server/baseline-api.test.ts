import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/app/open-state-store.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import type { ApprovedPolicy, BaselineAuditEntry } from '../../src/core/reports/baseline-drift/baseline-book.js';
import { DEMO_APPROVER, DEMO_DELETED_POLICY } from '../../src/core/reports/baseline-drift/demo.js';
import { IT_STAFF_ROLE, TRIAGER_ROLE } from '../../src/server/tab-access.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import { startAzurite } from '../support/azurite.js';
import { simulatorTenantKey, useTestSimulator } from '../support/simulated-tenant.js';
import { startTabServer } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const REPORT = 'baseline-drift';
const ACTIVE_HOURS = 'Updates - active hours from 8 (Engineering)';

const token = (roles: string[], username = 'lee.gu@contoso.example') => harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles, username, name: 'Lee Gu' });

async function call<T>(server: TabServer, method: 'GET' | 'POST', path: string, bearer: string, body?: unknown) {
  const response = await request(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.statusCode, json: JSON.parse(await response.body.text()) as T };
}

type BaselineView = { policies: ApprovedPolicy[]; audit: BaselineAuditEntry[]; canApprove: boolean };

const kindsOf = (report: ReportResult, policyName: string) => report.findings.filter((finding) => finding.subjectName === policyName).map((finding) => finding.kind);

/** The same checks on each store: the baseline is the store's, so a restart or another instance keeps it. */
function describeBaselineOn(name: string, openStore: () => Promise<{ store: () => Promise<StateStore>; dispose: () => Promise<void> }>) {
  describe(`the approved baseline, kept in the ${name}`, () => {
    let backing: Awaited<ReturnType<typeof openStore>>;
    const opened: StateStore[] = [];
    const servers: TabServer[] = [];
    const serverOverStore = async () => {
      const store = await backing.store();
      opened.push(store);
      const server = await startTabServer(harness.sim, harness.client(), { store });
      servers.push(server);
      return server;
    };

    beforeAll(async () => {
      backing = await openStore();
    });

    afterAll(async () => {
      for (const server of servers) await server.close();
      for (const store of opened) await store.close();
      await backing?.dispose();
    });

    it('starts the demo from its own baseline, shows its drift, and approving needs the Triager role; an approval is audited, shows on another instance at once and survives a restart', async () => {
      const first = await serverOverStore();
      const reader = await token([IT_STAFF_ROLE]);
      const triager = await token([TRIAGER_ROLE]);
      const report = (await call<ReportResult>(first, 'GET', `/api/reports/${REPORT}`, reader)).json;
      expect(report.state).toBe('loaded');
      expect(kindsOf(report, ACTIVE_HOURS)).toEqual(['setting-drifted']);
      expect(kindsOf(report, DEMO_DELETED_POLICY.policyName)).toEqual(['approved-policy-deleted']);
      const drifted = report.findings.find((finding) => finding.subjectName === ACTIVE_HOURS)!;
      expect(drifted.detail).toMatch(
        new RegExp(`^Active Hours Start: approved 7, now 8 \\(approved by ${DEMO_APPROVER.replace(/\./g, '\\.')} on \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC\\)\\.$`),
      );

      const view = (await call<BaselineView>(first, 'GET', '/api/baseline', reader)).json;
      expect(view.canApprove).toBe(false);
      expect(view.policies.map((policy) => policy.policyName)).toContain(ACTIVE_HOURS);

      // A reader may not approve; nothing changes.
      const refused = await call<{ error: { message: string } }>(first, 'POST', '/api/baseline', reader, { action: 'approve', policyId: drifted.subjectId });
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toBe('Approving policies needs the DeviceHealth.Triager app role.');

      // The Triager accepts the drift: the policy is approved as it is now, and the drift is gone.
      const approved = await call<{ entry: BaselineAuditEntry }>(first, 'POST', '/api/baseline', triager, { action: 'approve', policyId: drifted.subjectId });
      expect(approved.status).toBe(200);
      expect(approved.json.entry).toMatchObject({ action: 'approve', by: 'lee.gu@contoso.example', policyId: drifted.subjectId, policyName: ACTIVE_HOURS });
      const after = (await call<ReportResult>(first, 'GET', `/api/reports/${REPORT}`, reader)).json;
      expect(kindsOf(after, ACTIVE_HOURS)).toEqual([]);
      expect(after.rows.find((row) => row.policy === ACTIVE_HOURS)).toMatchObject({
        status: expect.stringMatching(/^Matches the approved baseline \(approved by lee\.gu@contoso\.example on /),
      });
      // Withdrawing the deleted policy takes its finding away too, audited.
      expect((await call(first, 'POST', '/api/baseline', triager, { action: 'withdraw', policyId: DEMO_DELETED_POLICY.policyId })).status).toBe(200);

      // Another server over the same store, at once (a second instance) and after the first stops (a restart).
      const second = await serverOverStore();
      const seen = (await call<BaselineView>(second, 'GET', '/api/baseline', triager)).json;
      expect(seen.canApprove).toBe(true);
      expect(seen.audit.slice(0, 2).map((entry) => [entry.action, entry.by, entry.policyName])).toEqual([
        ['withdraw', 'lee.gu@contoso.example', DEMO_DELETED_POLICY.policyName],
        ['approve', 'lee.gu@contoso.example', ACTIVE_HOURS],
      ]);
      const onSecond = (await call<ReportResult>(second, 'GET', `/api/reports/${REPORT}`, reader)).json;
      expect(kindsOf(onSecond, ACTIVE_HOURS)).toEqual([]);
      expect(kindsOf(onSecond, DEMO_DELETED_POLICY.policyName)).toEqual([]);
      expect(onSecond.findings.map((finding) => finding.kind).sort()).toEqual(['approved-policy-reassigned', 'approved-policy-unassigned']);

      // Both stop, and the app starts again over the same store: the approvals are still there.
      for (const server of servers.splice(0)) await server.close();
      for (const store of opened.splice(0)) await store.close();
      const restarted = await serverOverStore();
      expect((await call<BaselineView>(restarted, 'GET', '/api/baseline', reader)).json.audit.slice(0, 2).map((entry) => entry.action)).toEqual(['withdraw', 'approve']);
      expect(kindsOf((await call<ReportResult>(restarted, 'GET', `/api/reports/${REPORT}`, reader)).json, ACTIVE_HOURS)).toEqual([]);
    });

    it('refuses a request it cannot keep, saying why, and changes nothing', async () => {
      const server = servers[0] ?? (await serverOverStore());
      const triager = await token([TRIAGER_ROLE]);
      const before = (await call<BaselineView>(server, 'GET', '/api/baseline', triager)).json;
      const post = (body: unknown) => call<{ error: { status: number; message: string } }>(server, 'POST', '/api/baseline', triager, body);
      expect((await post({ action: 'approve', policyId: 'not-an-id' })).status).toBe(400);
      expect((await post({ action: 'erase', policyId: DEMO_DELETED_POLICY.policyId })).status).toBe(400);
      expect((await post({ action: 'approve', policyId: '00000000-0000-4000-8000-000000000000' })).json.error).toMatchObject({ status: 404 });
      expect((await post({ action: 'withdraw', policyId: DEMO_DELETED_POLICY.policyId })).json.error).toMatchObject({
        status: 404,
        message: 'That policy is not in the approved baseline.',
      });
      const unauthenticated = await request(`${server.base}/api/baseline`);
      expect(unauthenticated.statusCode).toBe(401);
      await unauthenticated.body.dump();
      expect((await call<BaselineView>(server, 'GET', '/api/baseline', triager)).json).toEqual(before);
    });
  });
}

describeBaselineOn('file store', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'dmhealth-baseline-'));
  return { store: () => FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) }), dispose: () => rm(directory, { recursive: true, force: true }) };
});

describeBaselineOn('Azure Blob store (Azurite)', async () => {
  const azurite = await startAzurite();
  return { store: () => openStateStore(azurite.connectionString, { tenant: simulatorTenantKey(harness.sim) }), dispose: () => azurite.stop() };
});
