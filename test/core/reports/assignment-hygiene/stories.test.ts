import { describe, expect, it } from 'vitest';
import type { GraphReader } from '../../../../src/core/graph/graph-reader.js';
import { loadReport } from '../../../../src/core/reports/registry.js';
import { ASSIGNMENT_HYGIENE_STORIES } from '../../../../src/core/reports/assignment-hygiene/demo.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { MAX_AUDIT_SLICES } from '../../../../src/core/audit-story/read-audit-log.js';
import { expectWindowTiled } from '../../../support/audit-window.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');

/** `graph` as the report reads it, but for its pages, which `pages` serves: to hold a list back or see the log asked for. */
function withPages(graph: GraphReader, pages: GraphReader['pages']): GraphReader {
  return {
    get betaCoverage() {
      return graph.betaCoverage;
    },
    coveragePath: (path) => graph.coveragePath(path),
    get: (path, options) => graph.get(path, options),
    getAll: (path, options, project) => graph.getAll(path, options, project),
    batchGet: (requests, options) => graph.batchGet(requests, options),
    pages,
  };
}

const harness = useTestSimulator({ tenant: buildDemoTenant({ now }) });

describe("report 2's findings tell their story", () => {
  it('each object the demo declares a story for carries its last successful change; the log is read once for its year', async () => {
    const result = await loadReport('assignment-hygiene', harness.client(), { now: () => now });
    expect(result.error).toBeNull();
    for (const { objectName, lastChange } of ASSIGNMENT_HYGIENE_STORIES) {
      const findings = result.findings.filter((finding) => finding.subjectName.endsWith(`: ${objectName}`));
      expect(findings.length, objectName).toBeGreaterThan(0);
      for (const finding of findings) expect(finding.lastChange, objectName).toMatchObject(lastChange);
    }
    const firstPages = harness.sim.graph.requests
      .filter((request) => request.path === '/v1.0/deviceManagement/auditEvents' && !request.query.includes('skiptoken'))
      .map((request) => new URLSearchParams(request.query).get('$filter'));
    // The lists do not select when each object last changed: the window is the log's year, read in
    // slices side by side, each once.
    expect(expectWindowTiled(firstPages, '2025-11-22T09:00:00Z')).toBe(MAX_AUDIT_SLICES);
  });

  it('reads the log beside its lists, not after them: the year is asked for while a list is still held back', async () => {
    const graph = harness.client();
    // The apps' list is held until the audit log is first asked for: a load that read the log only
    // after its lists would never ask, and would not end.
    let auditAsked!: () => void;
    const asked = new Promise<void>((resolve) => (auditAsked = resolve));
    const order: string[] = [];
    const held = withPages(graph, async function* (path, options) {
      if (path.endsWith('/auditEvents') && !order.includes('audit log')) {
        order.push('audit log');
        auditAsked();
      }
      if (path === '/v1.0/deviceAppManagement/mobileApps') {
        await asked;
        order.push('apps');
      }
      yield* graph.pages(path, options);
    });
    const result = await loadReport('assignment-hygiene', held, { now: () => now });
    expect(result.error).toBeNull();
    expect(order).toEqual(['audit log', 'apps']);
    expect(result.findings.some((finding) => finding.lastChange)).toBe(true);
  });

  it('fails with its list, not its log: a list that fails while the year is read stops the read, which ends before the report', async () => {
    const graph = harness.client();
    const removeFailingApps = harness.sim.faults.add({ path: '/v1.0/deviceAppManagement/mobileApps', status: 403 });
    let auditAsked!: () => void;
    const asked = new Promise<void>((resolve) => (auditAsked = resolve));
    const logReads = { started: 0, finished: 0, completed: 0 };
    const held = withPages(graph, async function* (path, options) {
      if (path.endsWith('/auditEvents')) {
        logReads.started += 1;
        auditAsked();
        try {
          // Each slice of the year is under way until the load is stopped, and then takes a
          // second to wind down, as a page in flight may: longer than the rest of the load takes
          // to stop, so a report that did not wait for its log would answer first (checked).
          const signal = options?.signal;
          if (!signal) throw new Error('the log was read without a signal to stop it');
          if (!signal.aborted) await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
          await new Promise((resolve) => setTimeout(resolve, 1000));
          yield* graph.pages(path, options);
          logReads.completed += 1;
        } finally {
          logReads.finished += 1;
        }
        return;
      }
      // The apps' list is asked for, and fails, only once the log is being read.
      if (path === '/v1.0/deviceAppManagement/mobileApps') await asked;
      yield* graph.pages(path, options);
    });
    try {
      const result = await loadReport('assignment-hygiene', held, { now: () => now });
      expect(result.state).toBe('load-error');
      expect(result.error?.message).toMatch(/403|permission|forbidden/i);
      // The failure stopped every slice of the year, and each had ended before the report
      // answered: nothing of the load outlives it.
      expect(logReads.started).toBe(MAX_AUDIT_SLICES);
      expect(logReads.finished).toBe(MAX_AUDIT_SLICES);
      expect(logReads.completed).toBe(0);
    } finally {
      removeFailingApps();
    }
  });
});
