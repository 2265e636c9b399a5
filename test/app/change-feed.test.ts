import { describe, expect, it } from 'vitest';
import { ChangeFeedService } from '../../src/app/change-feed-service.js';
import { SharedAuditLog } from '../../src/core/audit-story/shared-audit-log.js';
import { DEMO_CHANGES } from '../../src/core/changes/demo.js';
import type { ChangeFeedResult } from '../../src/core/changes/load.js';
import type { LoadMemory } from '../../src/core/reports/report-model.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { auditEvent } from '../../src/core/audit-story/demo-records.js';
import type { GraphRecord } from '../../src/sim/tenants/sim-tenant.js';

const NOW = new Date();
const harness = useTestSimulator({ tenant: buildDemoTenant({ now: NOW }) });
const WEEK = { since: new Date(NOW.getTime() - 7 * 86_400_000) };

function service(memory?: LoadMemory): ChangeFeedService {
  return new ChangeFeedService({ graph: harness.client(), auditLog: new SharedAuditLog(memory), log: () => undefined });
}

function loaded(result: ChangeFeedResult): Extract<ChangeFeedResult, { state: 'loaded' }> {
  if (result.state !== 'loaded') throw new Error(`the feed did not load: ${result.error.message}`);
  return result;
}

const actorName = (actor: (typeof DEMO_CHANGES)[number]['by']) => ('user' in actor ? actor.user : actor.app);

describe('the change feed on the demo tenant (strict simulator)', () => {
  it('lists a week of changes of every kind, newest first, by whom, each setting and assignment by its name', async () => {
    const { feed, notes } = loaded(await service().feed(WEEK));
    expect(feed.changes.map((change) => [change.object.name, change.action, change.by])).toEqual(
      DEMO_CHANGES.map((change) => [change.object, change.action, actorName(change.by)]),
    );
    const named = (object: string) => feed.changes.find((change) => change.object.name === object)!.details.map((detail) => `${detail.name}: ${detail.before} → ${detail.after}`);
    // Named from the policy's own settings, read for this feed alone.
    expect(named('Firewall - Datacenter')).toEqual(['Enable Domain Network Firewall: True → False']);
    expect(named('7-Zip')).toEqual([
      'Assignment 1: intent:  → Required',
      'Assignment 1: group:  → All Staff',
      'Assignment 1: filter:  → Corporate Windows',
      'Assignment 1: filter mode:  → Include',
    ]);
    expect(named('Contoso CAD')).toEqual(['Assignment: group: All Staff → ']);
    expect(named('Windows - Wi-Fi (Corp)')).toEqual(['Pre shared key: a secret (not shown) → a secret (not shown)']);
    expect(feed.changes.find((change) => change.object.name === 'Set time zone')!.details[0]!.note).toMatch(/cut short/);
    // The failed attempt is not listed; the device wipe is counted, not listed.
    expect(feed.otherEvents).toBe(1);
    expect(notes).toEqual(['1 other event of the audit log in this time (device actions, roles, enrollment) is not device configuration and not listed.']);
  });

  it('reads the log for the window, then the settings of the one policy it names, the groups and the filters: nothing else', async () => {
    const feeds = service();
    harness.sim.graph.clearLog();
    loaded(await feeds.feed(WEEK));
    const sent = harness.sim.graph.requests.filter((request) => !request.inBatch).map((request) => request.path);
    const batched = harness.sim.graph.requests.filter((request) => request.inBatch).map((request) => request.path);
    expect(sent.filter((path) => path === '/v1.0/deviceManagement/auditEvents')).toHaveLength(1);
    expect(sent.filter((path) => path === '/beta/deviceManagement/assignmentFilters')).toHaveLength(1);
    expect(batched.filter((path) => path.endsWith('/settings'))).toHaveLength(1);
    expect(batched.filter((path) => path.startsWith('/v1.0/groups/'))).toHaveLength(1);
    expect(sent.filter((path) => !['/v1.0/deviceManagement/auditEvents', '/beta/deviceManagement/assignmentFilters', '/beta/$batch', '/v1.0/$batch'].includes(path))).toEqual([]);

    // The next feed reads only the log's new events, from an hour before the last read began, and
    // nothing to name them: its policies have not changed since they were read, its ids are named.
    harness.sim.graph.clearLog();
    const warm = loaded(await feeds.feed(WEEK));
    expect(harness.sim.graph.requests.map((request) => request.path)).toEqual(['/v1.0/deviceManagement/auditEvents']);
    const logReads = harness.sim.graph.requests.filter((request) => request.path === '/v1.0/deviceManagement/auditEvents');
    expect(warm.feed.changes.find((change) => change.object.name === 'Firewall - Datacenter')!.details[0]).toMatchObject({
      name: 'Enable Domain Network Firewall',
      after: 'False',
    });

    // A policy changed since: the next feed reads its settings again, and only its.
    const lab = harness.sim.tenant.collections.configurationPolicies!.find((policy) => policy.name === 'Firewall - Lab')!;
    const before = harness.sim.tenant.collections.auditEvents!;
    // A new list, not the old one grown: the simulator serves a list's pages again as it first sent them until the list is replaced.
    harness.sim.tenant.collections.auditEvents = [
      ...before,
      auditEvent('7f3e2d1c-0b9a-4876-9543-210fedcba987', '6e2d1c0b-9a87-4654-8321-0fedcba98765', {
        resourceId: lab.id,
        resourceName: 'Firewall - Lab',
        resourceType: 'DeviceManagementConfigurationPolicy',
        operation: 'Patch',
        verb: 'Patch',
        at: new Date(Date.now() - 60_000).toISOString(),
        actor: { user: 'erin@contoso.com' },
        result: 'Success',
        properties: [
          {
            name: 'Settings[0].SettingInstance.ChoiceSettingValue.Value',
            oldValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_false',
            newValue: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_true',
          },
        ],
      }) as unknown as GraphRecord,
    ];
    try {
      harness.sim.graph.clearLog();
      const after = loaded(await feeds.feed(WEEK));
      expect(after.feed.changes[0]).toMatchObject({
        by: 'erin@contoso.com',
        object: { name: 'Firewall - Lab' },
        details: [{ name: 'Enable Domain Network Firewall', before: 'False', after: 'True' }],
      });
      expect(harness.sim.graph.requests.filter((request) => request.inBatch).map((request) => request.path)).toEqual([
        `/beta/deviceManagement/configurationPolicies/${lab.id}/settings`,
      ]);
    } finally {
      harness.sim.tenant.collections.auditEvents = before;
    }
    const from = Date.parse(/activityDateTime ge (\S+)/.exec(new URLSearchParams(logReads[0]!.query).get('$filter') ?? '')?.[1] ?? '');
    expect(Date.now() - from).toBeLessThan(2 * 3_600_000);
  });

  it('keeps the log between processes: a feed after a restart reads only what is new', async () => {
    const kept = new Map<string, string>();
    const memory: LoadMemory = { read: async (name) => kept.get(name) ?? null, write: async (name, text) => void kept.set(name, text) };
    const first = loaded(await service(memory).feed(WEEK));
    harness.sim.graph.clearLog();
    const again = loaded(await service(memory).feed(WEEK));
    expect(again.feed.changes.map((change) => change.id)).toEqual(first.feed.changes.map((change) => change.id));
    const logReads = harness.sim.graph.requests.filter((request) => request.path === '/v1.0/deviceManagement/auditEvents');
    expect(logReads).toHaveLength(1);
    expect(new URLSearchParams(logReads[0]!.query).get('$filter')).not.toContain(WEEK.since.toISOString().slice(0, 19));
  });

  it('is a load error, never an empty feed, when the audit log cannot be read', async () => {
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/auditEvents', status: 403 });
    const result = await service().feed(WEEK);
    expect(result).toMatchObject({ state: 'load-error', error: { status: 403, code: 'auditLogUnreadable' } });
    expect(result.state === 'load-error' && result.error.message).toMatch(/The Intune audit log could not be read \(Graph answered 403\)/);
  });

  it("shows the log's values, and says why, where the policy's settings cannot be read", async () => {
    harness.sim.faults.add({ path: /\/configurationPolicies\/[^/]+\/settings$/i, status: 403 });
    const { feed, notes } = loaded(await service().feed(WEEK));
    const firewall = feed.changes.find((change) => change.object.name === 'Firewall - Datacenter')!;
    expect(firewall.details[0]).toMatchObject({ after: 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall_false' });
    expect(notes).toContain(
      'The settings of 1 policy could not be read (Graph answered 403; /beta/deviceManagement/configurationPolicies/{id}/settings): their changed values are shown as the audit log writes them.',
    );
  });

  it('keeps the id of a group it could not read, and never calls it deleted', async () => {
    harness.sim.faults.add({ path: /^\/v1\.0\/groups\//, status: 500 });
    const { feed, notes } = loaded(await service().feed(WEEK));
    const zip = feed.changes.find((change) => change.object.name === '7-Zip')!;
    const group = zip.details.find((detail) => detail.name === 'Assignment 1: group')!;
    expect(group.after).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(feed)).not.toContain('deleted group');
    expect(notes.some((note) => /group named by id could not be read/.test(note))).toBe(true);
  });
});
