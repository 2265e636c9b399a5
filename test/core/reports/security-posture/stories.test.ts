import { describe, expect, it } from 'vitest';
import { loadReport } from '../../../../src/core/reports/registry.js';
import { SECURITY_POSTURE_STORIES } from '../../../../src/core/reports/security-posture/demo.js';
import { buildDemoTenant } from '../../../../src/sim/tenants/demo-tenant.js';
import { expectWindowTiled } from '../../../support/audit-window.js';
import { useTestSimulator } from '../../../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now });
const harness = useTestSimulator({ tenant, pageSizes: { auditEvents: 4 } });

const AUDIT_PATH = '/v1.0/deviceManagement/auditEvents';

describe("report 3's findings tell their story", () => {
  it('each finding the demo declares a story for carries its last successful change, and the others none', async () => {
    const result = await loadReport('security-posture', harness.client(), { now: () => now });
    expect(result.error).toBeNull();
    for (const { subjectName, lastChange } of SECURITY_POSTURE_STORIES) {
      const finding = result.findings.find((candidate) => candidate.subjectName === subjectName);
      expect(finding, subjectName).toBeDefined();
      if (lastChange === null) expect(finding!.lastChange, subjectName).toBeUndefined();
      else expect(finding!.lastChange, subjectName).toMatchObject(lastChange);
    }
    expect(result.findings.filter((finding) => finding.lastChange).length).toBe(SECURITY_POSTURE_STORIES.filter((story) => story.lastChange).length);
    // The recent changes are kept for the findings' objects only, newest first.
    const changes = result.auditLog?.state === 'read' ? result.auditLog.changes : {};
    const findingIds = new Set(result.findings.map((finding) => finding.subjectId));
    expect(Object.keys(changes).every((id) => findingIds.has(id))).toBe(true);
    for (const list of Object.values(changes)) expect(list.map((change) => change.at)).toEqual([...list.map((change) => change.at)].sort().reverse());
    expect(result.notice).toBeNull();
  });

  it('reads the log once, every page, for the window since the oldest object’s last change', async () => {
    await loadReport('security-posture', harness.client(), { now: () => now });
    const reads = harness.sim.graph.requests.filter((request) => request.path === AUDIT_PATH);
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.every((request) => request.status === 200)).toBe(true);
    // The demo's intents were last changed 60 days before `now`: the window starts a day earlier,
    // and each of its slices is asked for once.
    const firstPages = reads.filter((request) => !request.query.includes('skiptoken')).map((request) => new URLSearchParams(request.query).get('$filter'));
    expect(expectWindowTiled(firstPages, '2026-09-22T09:00:00Z')).toBeGreaterThan(1);
  });

  it('a log the app may not read leaves the findings as they are and says their story could not be read', async () => {
    const app = harness.sim.addApplication({ roles: ['DeviceManagementConfiguration.Read.All'] });
    const graph = harness.client({ clientId: app.clientId, credential: { kind: 'secret', secret: app.secrets[0]! } });
    const result = await loadReport('security-posture', graph, { now: () => now });
    expect(result.state).toBe('loaded');
    expect(result.error).toBeNull();
    expect(result.findings.length).toBeGreaterThan(0);
    expect(result.findings.every((finding) => finding.lastChange === undefined)).toBe(true);
    expect(result.auditLog).toEqual({ state: 'unreadable', reason: 'Graph answered 403' });
    expect(result.notice).toMatch(/could not be read from the Intune audit log \(Graph answered 403\)/);
  });

  it('a log that fails leaves the findings and their fingerprints as they are', async () => {
    const whole = await loadReport('security-posture', harness.client(), { now: () => now });
    harness.sim.faults.add({ path: AUDIT_PATH, status: 400 });
    const broken = await loadReport('security-posture', harness.client(), { now: () => now });
    expect(broken.state).toBe('loaded');
    expect(broken.findings.map((finding) => finding.fingerprint)).toEqual(whole.findings.map((finding) => finding.fingerprint));
    expect(broken.auditLog?.state).toBe('unreadable');
  });
});
