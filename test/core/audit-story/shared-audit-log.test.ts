import { describe, expect, it } from 'vitest';
import { auditEvent } from '../../../src/core/audit-story/demo-records.js';
import { MAX_AUDIT_SLICES } from '../../../src/core/audit-story/read-audit-log.js';
import { KEPT_AUDIT_LOG, SharedAuditLog } from '../../../src/core/audit-story/shared-audit-log.js';
import type { LoadMemory, ReportResult } from '../../../src/core/reports/report-model.js';
import { REPORTS } from '../../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { buildLargeTenant } from '../../../src/sim/tenants/large-tenant.js';
import type { GraphRecord } from '../../../src/sim/tenants/sim-tenant.js';
import { expectWindowTiled } from '../../support/audit-window.js';
import { pacedBudget } from '../../support/paced-budget.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';
import type { SimulatorHarness } from '../../support/simulated-tenant.js';

/**
 * Reports 2 and 3 share one read of Intune's audit log, and later loads read only what is new
 * (shared-audit-log.ts, docs/performance.md "The audit log, read once"). Request counts, not time.
 */
const AUDIT_PATH = '/v1.0/deviceManagement/auditEvents';
const now = new Date('2026-11-22T09:00:00Z');

function auditRequests(harness: SimulatorHarness): Array<{ query: URLSearchParams }> {
  return harness.sim.graph.requests.filter((request) => request.path === AUDIT_PATH).map((request) => ({ query: new URLSearchParams(request.query) }));
}

/** A state store's kept texts, in memory. */
function keptTexts(): LoadMemory & { texts: Map<string, string> } {
  const texts = new Map<string, string>();
  return {
    texts,
    read: async (name) => texts.get(name) ?? null,
    write: async (name, text) => {
      texts.set(name, text);
    },
  };
}

/** Each finding's fingerprint with its last change, for comparing stories. */
function stories(results: readonly ReportResult[]): Array<[string, unknown]> {
  return results.flatMap((result) => result.findings.map((finding): [string, unknown] => [finding.fingerprint, finding.lastChange ?? null])).sort(([a], [b]) => a.localeCompare(b));
}

// A warm load's reads do not grow with the log: 10,000 events (200 pages) prove it as 100,000 would,
// at a tenth of the cold read. `npm run bench` reads the 100,000 of the large tenant (docs/performance.md).
const EVENTS = 10_000;

describe('a year of audit events', () => {
  const clock = { now: 0 };
  const harness = useTestSimulator({ tenant: buildLargeTenant({ devices: 2_000, auditEvents: EVENTS, now }), throttleClock: () => clock.now });
  const client = () => harness.client({ budget: pacedBudget(clock).budget });

  it('is read once for reports 2 and 3, and a warm load of both reads at most two pages of it', async () => {
    const auditLog = new SharedAuditLog();
    const graph = client();
    const load = () => Promise.all(['assignment-hygiene', 'security-posture'].map((id) => REPORTS.load(id, graph, { now: () => now, auditLog })));

    const cold = await load();
    for (const result of cold) expect(result.error).toBeNull();
    const coldReads = auditRequests(harness);
    // The year once (pages of 50, in slices each ending on a part page), whichever report asked
    // first, and at most a gap and a page of new events for the other.
    expect(coldReads.length).toBeGreaterThanOrEqual(EVENTS / 50);
    expect(coldReads.length).toBeLessThanOrEqual(EVENTS / 50 + MAX_AUDIT_SLICES + 2);
    expect(cold.some((result) => result.findings.some((finding) => finding.lastChange))).toBe(true);

    harness.sim.graph.clearLog();
    const warm = await load();
    const warmReads = auditRequests(harness);
    expect(warmReads.length).toBeGreaterThanOrEqual(1);
    expect(warmReads.length).toBeLessThanOrEqual(2);
    // Only the last hour and after is asked for again.
    for (const read of warmReads) expect(read.query.get('$filter')).toBe('activityDateTime ge 2026-11-22T08:00:00Z');
    expect(stories(warm)).toEqual(stories(cold));
  });
});

describe('the shared audit log on the demo tenant', () => {
  const tenant = buildDemoTenant({ now });
  const harness = useTestSimulator({ tenant });
  const ids = ['assignment-hygiene', 'security-posture'];

  it('tells the same stories as reports that read the log each on their own', async () => {
    const graph = harness.client();
    const alone = await Promise.all(ids.map((id) => REPORTS.load(id, graph, { now: () => now })));
    const shared = new SharedAuditLog();
    const together = await Promise.all(ids.map((id) => REPORTS.load(id, graph, { now: () => now, auditLog: shared })));
    expect(stories(together)).toEqual(stories(alone));
    expect(stories(together).some(([, change]) => change !== null)).toBe(true);
  });

  it('adds an event written since the last read, reads an event twice only once, and starts warm from what the state kept', async () => {
    const graph = harness.client();
    const memory = keptTexts();
    const first = await REPORTS.load('assignment-hygiene', graph, { now: () => now, auditLog: new SharedAuditLog(memory) });
    expect(memory.texts.has(KEPT_AUDIT_LOG)).toBe(true);
    const finding = first.findings.find((candidate) => candidate.lastChange)!;
    // A newer change of that finding's object, written after the first read, ten minutes before the next.
    const later = new Date(now.getTime() + 50 * 60_000);
    const change = auditEvent('9d1c0b7e-5a4f-4e3d-8c2b-1a0f9e8d7c6b', '8c0b9a6d-4e3f-4d2c-9b1a-0f9e8d7c6b5a', {
      resourceId: finding.subjectId,
      resourceName: 'changed',
      resourceType: 'DeviceConfiguration',
      operation: 'Patch',
      verb: 'Patch',
      at: new Date(later.getTime() - 10 * 60_000).toISOString(),
      actor: { user: 'erin@contoso.com' },
      result: 'Success',
    }) as unknown as GraphRecord;
    tenant.collections.auditEvents.push(change);
    try {
      harness.sim.graph.clearLog();
      // Another process over the same state: it reads only from an hour before the last read on.
      const second = await REPORTS.load('assignment-hygiene', graph, { now: () => later, auditLog: new SharedAuditLog(memory) });
      const reads = auditRequests(harness);
      expect(reads.map((read) => read.query.get('$filter'))).toEqual(['activityDateTime ge 2026-11-22T08:00:00Z']);
      const again = second.findings.find((candidate) => candidate.fingerprint === finding.fingerprint)!;
      expect(again.lastChange).toMatchObject({ by: 'erin@contoso.com' });
      const kept = second.auditLog?.state === 'read' ? second.auditLog.changes[finding.subjectId]! : [];
      expect(kept.filter((entry) => entry.by === 'erin@contoso.com')).toHaveLength(1);

      // Read once more over the same hour: the event is read twice and kept once.
      const third = await REPORTS.load('assignment-hygiene', graph, { now: () => later, auditLog: new SharedAuditLog(memory) });
      const keptAgain = third.auditLog?.state === 'read' ? third.auditLog.changes[finding.subjectId]! : [];
      expect(keptAgain.filter((entry) => entry.by === 'erin@contoso.com')).toHaveLength(1);
    } finally {
      tenant.collections.auditEvents.pop();
    }
  });

  it('keeps what it had when a later read fails, and the next read starts where the last good one did', async () => {
    const graph = harness.client();
    const auditLog = new SharedAuditLog();
    const first = await REPORTS.load('assignment-hygiene', graph, { now: () => now, auditLog });
    expect(first.auditLog?.state).toBe('read');
    const later = new Date(now.getTime() + 30 * 60_000);

    // A 403 is not retried: the read fails at once, and the report says so in its notice, not with an error.
    const removeFault = harness.sim.faults.add({ path: AUDIT_PATH, status: 403 });
    let failed: ReportResult;
    try {
      failed = await REPORTS.load('assignment-hygiene', graph, { now: () => later, auditLog });
    } finally {
      removeFault();
    }
    expect(failed.error).toBeNull();
    expect(failed.auditLog?.state).toBe('unreadable');
    expect(failed.findings.map((finding) => finding.fingerprint)).toEqual(first.findings.map((finding) => finding.fingerprint));

    // The failed read moved nothing on: the next one asks again from an hour before the first read.
    harness.sim.graph.clearLog();
    const after = await REPORTS.load('assignment-hygiene', graph, { now: () => later, auditLog });
    expect(auditRequests(harness).map((read) => read.query.get('$filter'))).toEqual(['activityDateTime ge 2026-11-22T08:00:00Z']);
    expect(stories([after])).toEqual(stories([first]));
  });

  it('leaves a read under way to the others when the report that asked stops waiting', async () => {
    const graph = harness.client();
    const auditLog = new SharedAuditLog();
    const since = new Date(now.getTime() - 30 * 86_400_000);
    const context = { graph, now: () => now };
    const stopped = new AbortController();
    const asking = auditLog.read(context, since, stopped.signal);
    const waiting = auditLog.read(context, since, new AbortController().signal);
    stopped.abort(new Error('the viewer left'));
    await expect(asking).rejects.toThrow('the viewer left');
    const answer = await waiting;
    expect(answer.ok).toBe(true);
    // One read served both: the window was read once.
    const reads = auditRequests(harness);
    const firstPages = reads.filter((read) => !read.query.has('$skiptoken')).map((read) => read.query.get('$filter'));
    expect(expectWindowTiled(firstPages, '2026-10-23T09:00:00Z')).toBeGreaterThan(1);
  });

  it("keeps every change of the change feed's days, beyond the few a story shows, and each older object's last few", async () => {
    const busy = '5e0b7c2a-1d3f-4a6b-9c8d-7e6f5a4b3c2d';
    const quiet = '6f1c8d3b-2e4a-4b7c-8d9e-0f1a2b3c4d5e';
    const event = (resourceId: string, index: number, daysAgo: number) =>
      auditEvent(`0000000${resourceId.slice(0, 1)}-0000-4000-8000-${String(index).padStart(12, '0')}`, '8c0b9a6d-4e3f-4d2c-9b1a-0f9e8d7c6b5a', {
        resourceId,
        resourceName: 'Busy policy',
        resourceType: 'DeviceConfiguration',
        operation: 'Patch',
        verb: 'Patch',
        at: new Date(now.getTime() - daysAgo * 86_400_000).toISOString(),
        actor: { user: 'erin@contoso.com' },
        result: 'Success',
      }) as unknown as GraphRecord;
    // Eight changes of one object in the last month and three before; two of another this month and six before.
    const planted = [
      ...Array.from({ length: 8 }, (_, index) => event(busy, index, 1 + index * 3)),
      ...Array.from({ length: 3 }, (_, index) => event(busy, 20 + index, 60 + index)),
      ...Array.from({ length: 2 }, (_, index) => event(quiet, 40 + index, 2 + index)),
      ...Array.from({ length: 6 }, (_, index) => event(quiet, 50 + index, 90 + index)),
    ];
    // A new list, not the old one grown: the simulator serves a list's pages again as it first sent them until the list is replaced.
    const before = tenant.collections.auditEvents;
    tenant.collections.auditEvents = [...before, ...planted];
    try {
      const memory = keptTexts();
      const year = new Date(now.getTime() - 365 * 86_400_000);
      const kept = async () => {
        const log = await new SharedAuditLog(memory).read({ graph: harness.client(), now: () => now }, year, new AbortController().signal);
        if (!log.ok) throw new Error(log.reason);
        const of = (id: string) => log.value.entries.filter((entry) => entry.resources.some((resource) => resource.id === id)).length;
        return [of(busy), of(quiet)];
      };
      // The busy object's eight recent changes (none older: five are kept in all); the quiet one's two and three more.
      expect(await kept()).toEqual([8, 5]);
      // As kept in the state, for the next process.
      expect(await kept()).toEqual([8, 5]);
    } finally {
      tenant.collections.auditEvents = before;
    }
  });

  it('reads the whole window again when the kept log is torn', async () => {
    const memory = keptTexts();
    memory.texts.set(KEPT_AUDIT_LOG, '{"since": 1, "nextFrom": "torn"');
    const result = await REPORTS.load('assignment-hygiene', harness.client(), { now: () => now, auditLog: new SharedAuditLog(memory) });
    expect(result.auditLog?.state).toBe('read');
    const firstPages = auditRequests(harness).filter((read) => !read.query.has('$skiptoken'));
    expect(
      expectWindowTiled(
        firstPages.map((read) => read.query.get('$filter')),
        '2025-11-22T09:00:00Z',
      ),
    ).toBe(MAX_AUDIT_SLICES);
    expect(JSON.parse(memory.texts.get(KEPT_AUDIT_LOG)!)).toMatchObject({ nextFrom: now.getTime() - 3_600_000 });
  });
});
