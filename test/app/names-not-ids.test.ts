import { describe, expect, it } from 'vitest';
import { AppliesService } from '../../src/app/applies-service.js';
import { APPLIES_DEMO } from '../../src/core/applies/demo.js';
import { loadReport } from '../../src/core/reports/registry.js';
import type { ReportId } from '../../src/core/reports/report-model.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const now = new Date('2026-11-22T09:00:00Z');
const tenant = buildDemoTenant({ now });
const harness = useTestSimulator({ tenant });

const GUID = /\b(user|group)s? ([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/gi;

/**
 * The groups and users whose names this app reads on the demo tenant: every group still in the
 * directory (`/groups/{id}` names it, a hidden membership included), and every managed device's
 * primary user (the device names their UPN). A deleted group's name is gone with it.
 */
function named(): Map<string, string> {
  const names = new Map<string, string>();
  for (const group of tenant.groups.values()) if (!tenant.deletedGroups?.has(group.id.toLowerCase())) names.set(group.id.toLowerCase(), group.displayName);
  for (const device of tenant.collections.managedDevices) {
    if (typeof device.userId === 'string' && typeof device.userPrincipalName === 'string' && device.userPrincipalName)
      names.set(device.userId.toLowerCase(), device.userPrincipalName);
  }
  return names;
}

/** Each "user <id>" or "group <id>" in `text` whose name was read: the id shown where the name should be. */
function idsForNames(text: string): string[] {
  const names = named();
  return [...text.matchAll(GUID)].flatMap((match) => (names.has(match[2]!.toLowerCase()) ? [`${match[0]} (${names.get(match[2]!.toLowerCase())})`] : []));
}

describe('people and groups by name on the demo tenant', () => {
  it.each(['assignment-hygiene', 'admin-approval'] as ReportId[])('%s names every group it read by its name in its rows and findings', async (id) => {
    const report = await loadReport(id, harness.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    expect(report.findings.length).toBeGreaterThan(0);
    expect(idsForNames(JSON.stringify({ rows: report.rows, findings: report.findings }))).toEqual([]);
  });

  it('what applies names every group and user it read by its name, for a device, a user and groups', async () => {
    const service = new AppliesService({ graph: harness.client(), maxAgeMs: 60_000, log: () => undefined });
    const subjects = [APPLIES_DEMO.device, 'CONTOSO-0026', APPLIES_DEMO.user, 'Sales EMEA', APPLIES_DEMO.hidden.group, APPLIES_DEMO.unreadable];
    for (const subject of subjects) {
      const result = await service.applies(subject);
      expect(result.kind, subject).toBe('found');
      expect(idsForNames(JSON.stringify(result)), subject).toEqual([]);
    }
    // The hidden-membership group is named, and unknown (never "deleted") where it decides.
    const answer = JSON.stringify(await service.applies(APPLIES_DEMO.device));
    expect(answer).toContain(`whether exclusion group ${APPLIES_DEMO.hidden.group} takes it out could not be told`);
    expect(answer).not.toContain(`deleted group`);
  });
});
