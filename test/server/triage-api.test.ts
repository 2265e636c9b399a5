import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportSummary } from '../../src/core/reports/report-summary.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { FileStateStore } from '../../src/store/file-state-store.js';
import { openStateStore } from '../../src/app/open-state-store.js';
import type { StateStore } from '../../src/store/state-store.js';
import type { TriageView } from '../../src/core/triage/triage-book.js';
import { IT_STAFF_ROLE, TRIAGER_ROLE } from '../../src/server/tab-access.js';
import { TRIAGE_CHANGES_PER_MINUTE } from '../../src/server/triage-routes.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { startAzurite } from '../support/azurite.js';
import type { Azurite } from '../support/azurite.js';
import { useTestSimulator, simulatorTenantKey } from '../support/simulated-tenant.js';
import { startTabServer } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const REPORT = 'escrow-gaps';

const token = (roles: string[], username = 'alex.wilber@contoso.example') =>
  harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles, username, name: 'Alex Wilber' });

async function call<T>(server: TabServer, method: 'GET' | 'POST', path: string, bearer: string, body?: unknown) {
  const response = await request(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.body.text();
  return { status: response.statusCode, json: JSON.parse(text) as T };
}

/** The same checks on each store: decisions are the store's, so a restart or another instance keeps them. */
function describeTriageOn(name: string, openStore: () => Promise<{ store: () => Promise<StateStore>; dispose: () => Promise<void> }>) {
  describe(`accept, snooze and reopen, kept in the ${name}`, () => {
    let backing: Awaited<ReturnType<typeof openStore>>;
    let store: StateStore;
    let server: TabServer;
    let report: ReportResult;

    beforeAll(async () => {
      backing = await openStore();
      store = await backing.store();
      server = await startTabServer(harness.sim, harness.client(), { store });
      report = (await call<ReportResult>(server, 'GET', `/api/reports/${REPORT}`, await token([IT_STAFF_ROLE]))).json;
      expect(report.findings.length).toBeGreaterThan(2);
    });

    afterAll(async () => {
      await server?.close();
      await store?.close();
      await backing?.dispose();
    });

    it('lets a reader read the decisions but answers 403 to a change without the Triager role', async () => {
      const reader = await token([IT_STAFF_ROLE]);
      const view = await call<TriageView>(server, 'GET', `/api/reports/${REPORT}/triage`, reader);
      expect(view).toEqual({ status: 200, json: { canTriage: false, decisions: [], audit: [] } });
      const refused = await call<{ error: { message: string } }>(server, 'POST', `/api/reports/${REPORT}/triage`, reader, {
        action: 'accept',
        fingerprint: report.findings[0]!.fingerprint,
        reason: 'Kiosk',
      });
      expect(refused.status).toBe(403);
      expect(refused.json.error.message).toContain(TRIAGER_ROLE);
      expect((await call<TriageView>(server, 'GET', `/api/reports/${REPORT}/triage`, reader)).json.decisions).toEqual([]);
    });

    it('accepts and snoozes with who and when from the token, counts them apart, survives a restart, and reopens', async () => {
      const triager = await token([TRIAGER_ROLE]);
      const [first, second] = report.findings;
      const accepted = await call<TriageView>(server, 'POST', `/api/reports/${REPORT}/triage`, triager, {
        action: 'accept',
        fingerprint: first!.fingerprint,
        reason: 'Kiosk device: BitLocker is off by design',
      });
      expect(accepted.status).toBe(200);
      expect(accepted.json.canTriage).toBe(true);
      expect(accepted.json.decisions).toEqual([
        expect.objectContaining({
          fingerprint: first!.fingerprint,
          state: 'accepted',
          subjectName: first!.subjectName,
          by: expect.objectContaining({ username: 'alex.wilber@contoso.example', name: 'Alex Wilber' }),
        }),
      ]);
      const until = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
      const snoozed = await call<TriageView>(server, 'POST', `/api/reports/${REPORT}/triage`, triager, { action: 'snooze', fingerprint: second!.fingerprint, until });
      expect(snoozed.json.decisions.map((decision) => [decision.state, decision.until])).toEqual([
        ['accepted', null],
        ['snoozed', until],
      ]);

      const summary = (await call<ReportSummary>(server, 'GET', `/api/reports/${REPORT}/summary`, triager)).json;
      expect(summary.triaged).toEqual({ accepted: 1, snoozed: 1 });
      expect(summary.findings).toBe(report.findings.length - 2);

      // Another server over the same store: a restart, or a second instance.
      await server.close();
      await store.close();
      store = await backing.store();
      server = await startTabServer(harness.sim, harness.client(), { store });
      const afterRestart = await call<TriageView>(server, 'GET', `/api/reports/${REPORT}/triage`, triager);
      expect(afterRestart.json.decisions.map((decision) => decision.fingerprint)).toEqual([first!.fingerprint, second!.fingerprint]);

      const reopened = await call<TriageView>(server, 'POST', `/api/reports/${REPORT}/triage`, triager, { action: 'reopen', fingerprint: first!.fingerprint });
      expect(reopened.json.decisions.map((decision) => decision.fingerprint)).toEqual([second!.fingerprint]);
      expect(reopened.json.audit.map((entry) => [entry.action, entry.by.username])).toEqual([
        ['reopen', 'alex.wilber@contoso.example'],
        ['snooze', 'alex.wilber@contoso.example'],
        ['accept', 'alex.wilber@contoso.example'],
      ]);
    });

    it('refuses a request it cannot keep, saying why, and changes nothing', async () => {
      const triager = await token([TRIAGER_ROLE]);
      const before = (await call<TriageView>(server, 'GET', `/api/reports/${REPORT}/triage`, triager)).json;
      const post = (body: unknown, report = REPORT) => call<{ error: { message: string } }>(server, 'POST', `/api/reports/${report}/triage`, triager, body);
      expect((await post({ action: 'accept', fingerprint: report.findings[2]!.fingerprint })).json.error.message).toContain('needs a reason');
      expect((await post({ action: 'snooze', fingerprint: report.findings[2]!.fingerprint, until: 'next week' })).status).toBe(400);
      expect((await post({ action: 'accept', fingerprint: 'f'.repeat(32), reason: 'gone' })).status).toBe(404);
      expect((await post({ action: 'reopen', fingerprint: report.findings[2]!.fingerprint })).status).toBe(409);
      expect((await post({ action: 'erase', fingerprint: report.findings[2]!.fingerprint })).status).toBe(400);
      expect((await post({ action: 'accept', fingerprint: report.findings[2]!.fingerprint, reason: 'x' }, 'no-such-report')).status).toBe(404);
      expect((await call<TriageView>(server, 'GET', `/api/reports/${REPORT}/triage`, triager)).json).toEqual(before);
    });
  });
}

describeTriageOn('file store', async () => {
  const directory = await mkdtemp(join(tmpdir(), 'dmhealth-triage-'));
  return { store: () => FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) }), dispose: () => rm(directory, { recursive: true, force: true }) };
});

describeTriageOn('Azure Blob store (Azurite)', async () => {
  const azurite: Azurite = await startAzurite();
  return { store: () => openStateStore(azurite.connectionString, { tenant: simulatorTenantKey(harness.sim) }), dispose: () => azurite.stop() };
});

describe('triage decisions that cannot be read', () => {
  it('answer 503 with the reason, and the summary counts every finding as open rather than guessing', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'dmhealth-triage-torn-'));
    const store = await FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) });
    const server = await startTabServer(harness.sim, harness.client(), { store });
    try {
      await store.writeDocument('triage', '{"decisions": [{"fingerp');
      const triager = await token([TRIAGER_ROLE]);
      const read = await call<{ error: { message: string } }>(server, 'GET', `/api/reports/${REPORT}/triage`, triager);
      expect(read.status).toBe(503);
      expect(read.json.error.message).toContain(`tenants/${simulatorTenantKey(harness.sim)}/documents/triage.json`);
      const report = (await call<ReportResult>(server, 'GET', `/api/reports/${REPORT}`, triager)).json;
      const change = await call<{ error: { message: string } }>(server, 'POST', `/api/reports/${REPORT}/triage`, triager, {
        action: 'accept',
        fingerprint: report.findings[0]!.fingerprint,
        reason: 'Kiosk',
      });
      expect(change.status).toBe(503);
      expect(await store.readDocument('triage')).toBe('{"decisions": [{"fingerp');
      const summary = (await call<ReportSummary>(server, 'GET', `/api/reports/${REPORT}/summary`, triager)).json;
      expect(summary.triaged).toBeNull();
      expect(summary.findings).toBe(report.findings.length);
    } finally {
      await server.close();
      await store.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});

describe('triage probes that must keep failing', () => {
  let directory: string;
  let store: StateStore;
  let server: TabServer;
  let report: ReportResult;
  let limitNow = 0;
  const lines: string[] = [];

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'dmhealth-triage-probes-'));
    store = await FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) });
    server = await startTabServer(harness.sim, harness.client(), { store, limitClock: () => limitNow, log: (line) => lines.push(line) });
    report = (await call<ReportResult>(server, 'GET', `/api/reports/${REPORT}`, await token([IT_STAFF_ROLE]))).json;
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('refuses a change sent as a form (what a page on another site can post without asking): 415, and one too large: 413; nothing written', async () => {
    const triager = await token([TRIAGER_ROLE]);
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', `action=accept&fingerprint=${report.findings[0]!.fingerprint}&reason=Kiosk`],
      ['text/plain', JSON.stringify({ action: 'accept', fingerprint: report.findings[0]!.fingerprint, reason: 'Kiosk' })],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="action"\r\n\r\naccept\r\n--x--'],
    ]) {
      const response = await request(`${server.base}/api/reports/${REPORT}/triage`, {
        method: 'POST',
        headers: { authorization: `Bearer ${triager}`, 'content-type': type! },
        body,
      });
      expect(response.statusCode, type).toBe(415);
      await response.body.text();
    }
    // JSON, but past the 4 KB a request needs: 413, read no further.
    const tooLarge = await call<{ error: { message: string } }>(server, 'POST', `/api/reports/${REPORT}/triage`, triager, {
      action: 'accept',
      fingerprint: report.findings[0]!.fingerprint,
      reason: 'x'.repeat(5_000),
    });
    expect(tooLarge).toEqual({ status: 413, json: { error: { status: 413, message: 'The body is too large.' } } });
    expect(await store.readDocument('triage')).toBeNull();
  });

  it("reopens a decision only through its own report's route: 404 through another's, and the decision stands", async () => {
    const triager = await token([TRIAGER_ROLE]);
    const fingerprint = report.findings[1]!.fingerprint;
    expect((await call(server, 'POST', `/api/reports/${REPORT}/triage`, triager, { action: 'accept', fingerprint, reason: 'Kiosk' })).status).toBe(200);
    lines.length = 0;
    const elsewhere = await call<{ error: { message: string } }>(server, 'POST', '/api/reports/connector-health/triage', triager, { action: 'reopen', fingerprint });
    expect(elsewhere.status).toBe(404);
    expect(lines.filter((line) => line.startsWith('triage:'))).toEqual([]);
    expect((await call<TriageView>(server, 'GET', `/api/reports/${REPORT}/triage`, triager)).json.decisions.map((decision) => decision.fingerprint)).toEqual([fingerprint]);
    expect((await call(server, 'POST', `/api/reports/${REPORT}/triage`, triager, { action: 'reopen', fingerprint })).status).toBe(200);
    expect(lines.filter((line) => line.startsWith('triage:'))).toEqual([`triage: alex.wilber@contoso.example did reopen on a finding of report ${REPORT}`]);
  });

  it('limits one person to a few dozen changes a minute (429 with Retry-After), while others still change', async () => {
    const alex = await token([TRIAGER_ROLE]);
    const megan = await harness.sim.entra.issueUserToken({
      audience: harness.sim.clientId,
      roles: [TRIAGER_ROLE],
      username: 'megan@contoso.example',
      name: 'Megan',
      claims: { oid: '33333333-3333-4333-8333-333333333333' },
    });
    limitNow = 120_000;
    const fingerprint = report.findings[2]!.fingerprint;
    const statuses: number[] = [];
    for (let index = 0; index < TRIAGE_CHANGES_PER_MINUTE; index += 1) {
      statuses.push(
        (await call(server, 'POST', `/api/reports/${REPORT}/triage`, alex, { action: index % 2 === 0 ? 'accept' : 'reopen', fingerprint, reason: `round ${index}` })).status,
      );
    }
    expect(statuses.every((status) => status === 200)).toBe(true);
    limitNow += 20_000;
    const refused = await request(`${server.base}/api/reports/${REPORT}/triage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${alex}`, 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'accept', fingerprint, reason: 'one more' }),
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    await refused.body.text();
    expect((await call(server, 'POST', `/api/reports/${REPORT}/triage`, megan, { action: 'accept', fingerprint: report.findings[3]!.fingerprint, reason: 'Lab' })).status).toBe(
      200,
    );
    limitNow += 40_000;
    expect((await call(server, 'POST', `/api/reports/${REPORT}/triage`, alex, { action: 'accept', fingerprint, reason: 'after the minute' })).status).toBe(200);
  });

  it('answers 503 to a change over a stored book of a hostile shape, and writes nothing (a retry cannot write it twice)', async () => {
    const hostile = JSON.stringify({ decisions: [], audit: [null, { at: 1 }], updatedAt: null });
    await store.writeDocument('triage', hostile);
    const triager = await token([TRIAGER_ROLE]);
    limitNow += 60_000;
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const change = await call<{ error: { message: string } }>(server, 'POST', `/api/reports/${REPORT}/triage`, triager, {
        action: 'accept',
        fingerprint: report.findings[4]!.fingerprint,
        reason: 'Kiosk',
      });
      expect(change.status).toBe(503);
    }
    expect(await store.readDocument('triage')).toBe(hostile);
  });
});
