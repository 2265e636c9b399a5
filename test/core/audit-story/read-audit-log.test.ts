import type * as Graph from '@microsoft/microsoft-graph-types';
import { describe, expect, it } from 'vitest';
import { auditWindowFilter } from '../../../src/core/audit-story/audit-story.js';
import { AUDIT_EVENTS_PATH, MAX_AUDIT_SLICES, auditSlices, readAuditLog, readAuditWindow } from '../../../src/core/audit-story/read-audit-log.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { expectWindowTiled } from '../../support/audit-window.js';
import { useTestSimulator } from '../../support/simulated-tenant.js';

/**
 * A long window of Intune's audit log is read in time slices side by side (read-audit-log.ts,
 * docs/performance.md "The audit log, read once"): every event once, none twice, and one slice
 * that fails fails the read. Request counts and contents, not time.
 */
const now = new Date('2026-11-22T09:00:00Z');
const DAY_MS = 86_400_000;
const harness = useTestSimulator({ tenant: buildDemoTenant({ now }), pageSizes: { auditEvents: 4 } });

describe('the slices of an audit window', () => {
  it('tile a year in whole seconds, the last open-ended', () => {
    const slices = auditSlices(new Date(now.getTime() - 365 * DAY_MS + 123), undefined, now);
    expect(slices).toHaveLength(MAX_AUDIT_SLICES);
    expect(slices[0]!.from.getTime()).toBe(now.getTime() - 365 * DAY_MS + 123);
    for (let index = 1; index < slices.length; index += 1) expect(slices[index - 1]!.to).toEqual(slices[index]!.from);
    expect(slices.at(-1)!.to).toBeUndefined();
    expect(new Set(slices.slice(1).map((slice) => (slice.from.getTime() - slices[0]!.from.getTime()) % 1000))).toEqual(new Set([0]));
    expect(
      expectWindowTiled(
        slices.map((slice) => auditWindowFilter(slice.from, slice.to)),
        '2025-11-22T09:00:00Z',
      ),
    ).toBe(MAX_AUDIT_SLICES);
  });

  it('leave a window shorter than two weeks whole, and end a bounded one where it ends', () => {
    expect(auditSlices(new Date(now.getTime() - 13 * DAY_MS), undefined, now)).toEqual([{ from: new Date(now.getTime() - 13 * DAY_MS), to: undefined }]);
    const to = new Date(now.getTime() - 10 * DAY_MS);
    const bounded = auditSlices(new Date(now.getTime() - 40 * DAY_MS), to, now);
    expect(bounded).toHaveLength(4);
    expect(bounded.at(-1)!.to).toEqual(to);
  });
});

describe('a year of the audit log read in slices', () => {
  it('holds every event of the window once, as one chain of pages would', async () => {
    const graph = harness.client();
    const from = new Date(now.getTime() - 365 * DAY_MS);
    const sliced = await readAuditWindow({ graph, now: () => now }, from, undefined, new AbortController().signal);
    const whole: string[] = [];
    for await (const page of graph.pages<Graph.AuditEvent>(AUDIT_EVENTS_PATH, { query: { $filter: auditWindowFilter(from) } }))
      for (const event of page.items) whole.push(event.id!);
    const ids = sliced.map((entry) => entry.id);
    expect(ids.length).toBeGreaterThan(MAX_AUDIT_SLICES);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...whole].sort());
  });

  it('tells its progress as one count that only grows', async () => {
    const counts: number[] = [];
    const entries = await readAuditWindow(
      { graph: harness.client(), now: () => now, onProgress: (source, count) => source === 'auditEvents' && counts.push(count) },
      new Date(now.getTime() - 365 * DAY_MS),
      undefined,
      new AbortController().signal,
    );
    expect(counts[0]).toBe(0);
    expect(counts.at(-1)).toBe(entries.length);
    expect(counts.every((count, index) => index === 0 || count >= counts[index - 1]!)).toBe(true);
  });

  it('is unreadable when one slice fails, and the others stop', async () => {
    const all = await readAuditLog({ graph: harness.client(), now: () => now }, [null]);
    expect(all.ok).toBe(true);
    harness.sim.graph.clearLog();
    harness.sim.faults.add({ path: AUDIT_EVENTS_PATH, status: 400, times: 1 });
    const broken = await readAuditLog({ graph: harness.client(), now: () => now }, [null]);
    expect(broken).toEqual({ ok: false, reason: 'Graph answered 400' });
    const reads = harness.sim.graph.requests.filter((request) => request.path === AUDIT_EVENTS_PATH);
    const pagesOfAll = all.ok ? Math.ceil(all.value.entries.length / 4) : 0;
    expect(reads.length).toBeLessThan(pagesOfAll);
  });
});
