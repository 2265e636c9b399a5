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
import type { AuditPage } from '../../src/core/triage/audit-page.js';
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
      expect(view).toEqual({ status: 200, json: { canTriage: false, decisions: [], audit: [], auditCount: 0, auditLatest: null } });
      expect((await call<AuditPage>(server, 'GET', `/api/reports/${REPORT}/triage/audit`, reader)).json).toEqual({
        report: REPORT,
        entries: [],
        older: null,
        total: 0,
        people: [],
      });
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
      expect(reopened.json).toMatchObject({ auditCount: 3, auditLatest: 3 });
      expect(reopened.json.audit.map((entry) => entry.seq)).toEqual([3, 2, 1]);
      const audit = (await call<AuditPage>(server, 'GET', `/api/reports/${REPORT}/triage/audit`, await token([IT_STAFF_ROLE]))).json;
      expect(audit.entries.map((entry) => [entry.seq, entry.action, entry.by.username])).toEqual([
        [3, 'reopen', 'alex.wilber@contoso.example'],
        [2, 'snooze', 'alex.wilber@contoso.example'],
        [1, 'accept', 'alex.wilber@contoso.example'],
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

describe('the triage audit, read a page at a time', () => {
  let directory: string;
  let store: StateStore;
  let server: TabServer;
  let report: ReportResult;
  let limitNow = 0;
  let alex: string;
  let megan: string;
  const MEGAN_ID = '44444444-4444-4444-8444-444444444444';
  const audit = async (query: string, bearer?: string) => call<AuditPage>(server, 'GET', `/api/reports/${REPORT}/triage/audit${query}`, bearer ?? (await token([IT_STAFF_ROLE])));
  /** Alex accepts and reopens one finding, `count` times in all, at the pace the limit allows (its clock moved, not waited for). */
  const alexChurns = async (count: number, from: number) => {
    for (let index = from; index < from + count; index += 1) {
      if (index % TRIAGE_CHANGES_PER_MINUTE === 0) limitNow += 60_000;
      const body = { action: index % 2 === 0 ? 'accept' : 'reopen', fingerprint: report.findings[1]!.fingerprint, reason: `round ${index}` };
      expect((await call(server, 'POST', `/api/reports/${REPORT}/triage`, alex, body)).status).toBe(200);
    }
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'dmhealth-triage-audit-'));
    store = await FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) });
    server = await startTabServer(harness.sim, harness.client(), { store, limitClock: () => limitNow });
    report = (await call<ReportResult>(server, 'GET', `/api/reports/${REPORT}`, await token([IT_STAFF_ROLE]))).json;
    alex = await token([TRIAGER_ROLE]);
    megan = await harness.sim.entra.issueUserToken({
      audience: harness.sim.clientId,
      roles: [TRIAGER_ROLE],
      username: 'megan@contoso.example',
      name: 'Megan Bowen',
      claims: { oid: MEGAN_ID },
    });
    // Megan's one decision first; then Alex, accepting and reopening for eight minutes.
    expect(
      (await call(server, 'POST', `/api/reports/${REPORT}/triage`, megan, { action: 'accept', fingerprint: report.findings[0]!.fingerprint, reason: 'Lab device' })).status,
    ).toBe(200);
    await alexChurns(240, 0);
  });

  afterAll(async () => {
    await server?.close();
    await store?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("lets a reader page back to another person's one old entry past someone's 240, and narrow to it", async () => {
    const first = (await audit('')).json;
    expect(first.entries).toHaveLength(50);
    expect(first.total).toBe(241);
    expect(new Set(first.entries.map((entry) => entry.by.username))).toEqual(new Set(['alex.wilber@contoso.example']));
    expect(first.people.map((person) => [person.name, person.entries])).toEqual([
      ['Alex Wilber', 240],
      ['Megan Bowen', 1],
    ]);

    // Every entry, a page of the largest size at a time, newest first, each once.
    const seen: AuditPage['entries'] = [];
    let before: number | null = null;
    for (let page = 0; page < 5; page += 1) {
      const answer: AuditPage = (await audit(`?limit=200${before === null ? '' : `&before=${before}`}`)).json;
      seen.push(...answer.entries);
      before = answer.older;
      if (before === null) break;
    }
    expect(before).toBeNull();
    expect(seen).toHaveLength(241);
    expect(seen.map((entry) => entry.seq)).toEqual(Array.from({ length: 241 }, (_, index) => 241 - index));
    expect(seen.at(-1)).toMatchObject({ by: { objectId: MEGAN_ID, name: 'Megan Bowen' }, action: 'accept', reason: 'Lab device' });

    // Narrowed to Megan: her entry alone, at once.
    const hers = (await audit(`?person=${MEGAN_ID}`)).json;
    expect(hers.entries.map((entry) => [entry.seq, entry.reason])).toEqual([[1, 'Lab device']]);
    expect(hers).toMatchObject({ total: 1, older: null });
    expect(hers.people).toEqual(first.people);
    // Narrowed to Alex, paged: his only.
    const alexId = first.people[0]!.objectId;
    const his = (await audit(`?person=${alexId}&limit=100&before=101`)).json;
    expect(his.entries.map((entry) => entry.seq)).toEqual(Array.from({ length: 99 }, (_, index) => 100 - index));
    expect(his).toMatchObject({ total: 240, older: null });
    // The decisions' answer counts the entries and names the newest, and still carries the latest 200.
    const view = (await call<TriageView>(server, 'GET', `/api/reports/${REPORT}/triage`, await token([IT_STAFF_ROLE]))).json;
    expect(view).toMatchObject({ auditCount: 241, auditLatest: 241 });
    expect(view.audit).toEqual(seen.slice(0, 200));
  });

  it('goes on from where a page ended when entries are added between pages: no gap, no repeat', async () => {
    const whole = (await audit('?limit=200')).json.entries.slice(0, 150);
    const first = (await audit('?limit=75')).json;
    expect(first.entries).toEqual(whole.slice(0, 75));
    await alexChurns(6, 240);
    const second = (await audit(`?limit=75&before=${first.older}`)).json;
    expect(second.entries).toEqual(whole.slice(75, 150));
    expect(second.total).toBe(247);
    // The new entries are on the newest page.
    expect((await audit('?limit=6')).json.entries.map((entry) => entry.reason)).toEqual(['round 245', 'round 244', 'round 243', 'round 242', 'round 241', 'round 240']);
  });

  it('answers 400 naming the parameter it cannot take, 404 for an unknown report, 401 without a token', async () => {
    const refusals: Array<[string, string, string]> = [
      ['?limit=0', 'limit', 'limit: "0" is not a whole number from 1 to 200.'],
      ['?limit=201', 'limit', 'limit: "201" is not a whole number from 1 to 200.'],
      ['?limit=ten', 'limit', 'limit: "ten" is not a whole number from 1 to 200.'],
      ['?before=0', 'before', 'before: "0" is not a whole number from 1.'],
      ['?before=-3', 'before', 'before: "-3" is not a whole number from 1.'],
      ['?before=2.5', 'before', 'before: "2.5" is not a whole number from 1.'],
      ['?before=99999999999999999999', 'before', 'before: "99999999999999999999" is not a whole number from 1.'],
      ['?person=', 'person', 'person: give the object id of someone in the audit (the people list names them), at most 128 characters.'],
      [`?person=${'a'.repeat(129)}`, 'person', 'person: give the object id of someone in the audit (the people list names them), at most 128 characters.'],
    ];
    for (const [query, parameter, message] of refusals) {
      expect(await audit(query), query).toEqual({ status: 400, json: { error: { status: 400, message, parameter } } });
    }
    expect((await call(server, 'GET', '/api/reports/no-such-report/triage/audit', await token([IT_STAFF_ROLE]))).status).toBe(404);
    const anonymous = await request(`${server.base}/api/reports/${REPORT}/triage/audit`);
    expect(anonymous.statusCode).toBe(401);
    await anonymous.body.text();
    // Someone who is not in the audit: no entries, not an error.
    expect((await audit('?person=55555555-5555-4555-8555-555555555555')).json).toMatchObject({ entries: [], total: 0, older: null });
  });
});

describe('a triage book stored before audit entries were numbered', () => {
  it('numbers them by their place, pages by those numbers, and the next change writes them down and goes on from there', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'dmhealth-triage-unnumbered-'));
    const store = await FileStateStore.open(directory, { tenant: simulatorTenantKey(harness.sim) });
    const server = await startTabServer(harness.sim, harness.client(), { store });
    try {
      const by = { objectId: '66666666-6666-4666-8666-666666666666', name: 'Adele Vance', username: 'adele@contoso.example' };
      const entry = (reason: string) => ({
        at: '2026-11-20T10:00:00.000Z',
        by,
        action: 'reopen',
        fingerprint: 'a'.repeat(32),
        report: REPORT,
        kind: 'missing-recovery-key',
        subjectName: 'LAB-01',
        reason,
        until: null,
      });
      await store.writeDocument('triage', JSON.stringify({ decisions: [], audit: [entry('first'), entry('second'), entry('third')], updatedAt: '2026-11-20T10:00:00.000Z' }));
      const reader = await token([IT_STAFF_ROLE]);
      const page = (await call<AuditPage>(server, 'GET', `/api/reports/${REPORT}/triage/audit?limit=2`, reader)).json;
      expect(page.entries.map((stored) => [stored.seq, stored.reason])).toEqual([
        [3, 'third'],
        [2, 'second'],
      ]);
      expect(page.older).toBe(2);
      const fingerprint = (await call<ReportResult>(server, 'GET', `/api/reports/${REPORT}`, reader)).json.findings[0]!.fingerprint;
      expect((await call(server, 'POST', `/api/reports/${REPORT}/triage`, await token([TRIAGER_ROLE]), { action: 'accept', fingerprint, reason: 'Kiosk' })).status).toBe(200);
      const stored = JSON.parse((await store.readDocument('triage'))!) as { audit: Array<{ seq: number; reason: string }> };
      expect(stored.audit.map((kept) => [kept.seq, kept.reason])).toEqual([
        [1, 'first'],
        [2, 'second'],
        [3, 'third'],
        [4, 'Kiosk'],
      ]);
      const older = (await call<AuditPage>(server, 'GET', `/api/reports/${REPORT}/triage/audit?before=${page.older}`, reader)).json;
      expect(older.entries.map((kept) => [kept.seq, kept.reason])).toEqual([[1, 'first']]);
    } finally {
      await server.close();
      await store.close();
      await rm(directory, { recursive: true, force: true });
    }
  });
});
