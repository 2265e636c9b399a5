import { describe, expect, it } from 'vitest';
import { GroupResolver, lookUpGroups } from '../../../src/core/directory/group-lookup.js';
import { loadReport } from '../../../src/core/reports/registry.js';
import { buildDemoTenant } from '../../../src/sim/tenants/demo-tenant.js';
import { blankTenant, useTestSimulator } from '../../support/simulated-tenant.js';

/**
 * Group look-ups and the directory's deleted items (docs/finding-rules.md, report 2, "Soft-deleted
 * groups"): a group `/groups/{id}` answers 404 for is looked up at `/directory/deletedItems/{id}`,
 * through `$batch` as the look-ups are.
 */
const LIVE = '11111111-1111-4111-8111-111111111111';
const SOFT = '33333333-3333-4333-8333-333333333333';
const GONE = '44444444-4444-4444-8444-444444444444';

const tenant = blankTenant();
tenant.groups.set(LIVE, { id: LIVE, displayName: 'Sales laptops', members: [{ id: '66666666-6666-4666-8666-666666666666', type: 'device' }] });
tenant.deletedGroups = new Map([[SOFT, { id: SOFT, displayName: 'Sales iPads', deletedDateTime: '2026-11-17T09:00:00Z' }]]);
const harness = useTestSimulator({ tenant });
const client = () => harness.client({ sleep: async () => undefined });
const resolve = async (ids: string[]) => {
  const resolver = new GroupResolver(client());
  resolver.add(ids);
  return resolver.settle();
};

describe('group look-ups and deleted items', () => {
  it('reads deleted items for the groups not found, in one more $batch: restorable with its dates, or gone for good', async () => {
    const lookups = await resolve([LIVE, SOFT, GONE]);
    expect(lookups.get(LIVE)).toMatchObject({ state: 'found' });
    expect(lookups.get(SOFT)).toEqual({
      state: 'deleted',
      id: SOFT,
      recovery: { kind: 'restorable', displayName: 'Sales iPads', deletedDateTime: '2026-11-17T09:00:00.000Z', restorableUntil: '2026-12-17T09:00:00.000Z' },
    });
    expect(lookups.get(GONE)).toEqual({ state: 'deleted', id: GONE, recovery: { kind: 'permanent' } });

    const log = harness.sim.graph.requests;
    expect(log.filter((entry) => !entry.inBatch).map((entry) => `${entry.method} ${entry.path}`)).toEqual(['POST /v1.0/$batch', 'POST /v1.0/$batch']);
    // The soft-deleted group is not served by /groups/{id}: 404 there, 200 in deleted items.
    expect(
      log
        .filter((entry) => entry.inBatch)
        .map((entry) => `${entry.path} ${entry.status}`)
        .sort(),
    ).toEqual(
      [
        `/v1.0/groups/${LIVE} 200`,
        `/v1.0/groups/${SOFT} 404`,
        `/v1.0/groups/${GONE} 404`,
        `/v1.0/directory/deletedItems/${SOFT} 200`,
        `/v1.0/directory/deletedItems/${GONE} 404`,
      ].sort(),
    );
    const deletedQuery = log.find((entry) => entry.path === `/v1.0/directory/deletedItems/${SOFT}`)!.query;
    expect(new URLSearchParams(deletedQuery).get('$select')).toBe('id,displayName,deletedDateTime');
  });

  it.each([
    ['denied (403)', { status: 403 }, 'Graph answered 403'],
    ['failing (503 past every retry)', { status: 503 }, 'Graph answered 503'],
  ])('when deleted items are %s, the group is deleted and whether it can be restored is unknown, never "permanently"', async (_label, fault, reason) => {
    harness.sim.faults.add({ path: `/v1.0/directory/deletedItems/${SOFT}`, ...fault });
    const lookups = await resolve([SOFT, LIVE]);
    expect(lookups.get(SOFT)).toEqual({ state: 'deleted', id: SOFT, recovery: { kind: 'unknown', reason } });
    expect(lookups.get(LIVE)).toMatchObject({ state: 'found' });
  });

  it('sends the deleted-items look-ups twenty to a $batch call, as the group look-ups', async () => {
    const missing = Array.from({ length: 45 }, (_, index) => `77777777-0000-4000-8000-${index.toString(16).padStart(12, '0')}`);
    const lookups = await resolve(missing);
    expect([...lookups.values()].every((lookup) => lookup.state === 'deleted' && lookup.recovery?.kind === 'permanent')).toBe(true);
    const log = harness.sim.graph.requests;
    expect(log.filter((entry) => !entry.inBatch)).toHaveLength(6);
    expect(log.filter((entry) => entry.path.startsWith('/v1.0/directory/deletedItems/'))).toHaveLength(45);
  });

  it('asks no deleted items for approver groups (report 5), nor when every group is found', async () => {
    const approvers = await lookUpGroups(client(), [SOFT]);
    expect(approvers.get(SOFT)).toEqual({ state: 'deleted', id: SOFT });
    await resolve([LIVE]);
    expect(harness.sim.graph.requests.filter((entry) => entry.path.startsWith('/v1.0/directory/deletedItems/'))).toEqual([]);
  });
});

describe('report 2 on the demo tenant names soft-deleted groups as such', () => {
  const now = new Date('2026-11-22T09:00:00Z');
  const demo = useTestSimulator({ tenant: buildDemoTenant({ now }) });

  it('with the deletion date and the day it goes for good, apart from groups gone for good and empty ones', async () => {
    const report = await loadReport('assignment-hygiene', demo.client(), { now: () => now });
    expect(report.state).toBe('loaded');
    const restorable = report.findings.filter((finding) => finding.kind === 'assigned-to-restorable-deleted-groups');
    expect(restorable.map((finding) => finding.subjectName).sort()).toEqual(['Compliance policy: iOS - Compliance (Sales)', 'Platform script: Map contractor drives']);
    expect(restorable.find((finding) => finding.subjectName.endsWith('(Sales)'))?.detail).toContain('Sales iPads (deleted on 2026-11-17, restorable until 2026-12-17)');
    expect(restorable.find((finding) => finding.subjectName.endsWith('drives'))?.detail).toContain('Android Legacy Users (empty)');
    const gone = report.findings.filter((finding) => finding.kind === 'assigned-to-missing-or-empty-groups' && finding.detail.includes('deleted group'));
    expect(gone.length).toBeGreaterThan(0);
    for (const finding of gone) expect(finding.detail).toContain('(permanently: not among deleted items)');
    // A soft-deleted group beside a live one reaches people: OK.
    expect(report.rows.find((row) => row.name === 'Windows - Sales printers')).toMatchObject({ status: 'OK' });
  });
});
