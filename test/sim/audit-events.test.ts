import { describe, expect, it } from 'vitest';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { requestAppToken, useRawGraph } from '../support/simulated-tenant.js';

/**
 * Intune's audit log as Graph documents it (intune-auditing-auditevent-list, v1.0 and beta): the
 * same auditEvent on both segments, read with DeviceManagementApps.* and no other permission, in no
 * promised order, windowed by a range on `activityDateTime`; any other `$filter` is refused.
 */
const now = new Date('2026-11-22T09:00:00Z');
const graph = useRawGraph(buildDemoTenant({ now }));

describe('the audit log', () => {
  it.each(['/v1.0', '/beta'])('%s serves auditEvents shaped as Graph documents them, with successes, failures and changes by apps', async (version) => {
    const { status, body } = await graph.get(`${version}/deviceManagement/auditEvents`);
    expect(status).toBe(200);
    const events = body.value!;
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) {
      expect(Object.keys(event)).toEqual(
        expect.arrayContaining([
          'id',
          'displayName',
          'activity',
          'activityDateTime',
          'activityType',
          'activityOperationType',
          'activityResult',
          'actor',
          'resources',
          'category',
          'componentName',
        ]),
      );
    }
    const results = new Set(events.map((event) => event.activityResult));
    expect(results).toEqual(new Set(['Success', 'Failure']));
    expect(events.some((event) => (event.actor as { userPrincipalName?: string | null }).userPrincipalName === null)).toBe(true);
    // No order is promised: the demo's log is not sent by time.
    const times = events.map((event) => Date.parse(String(event.activityDateTime)));
    expect([...times].sort((a, b) => a - b)).not.toEqual(times);
  });

  it('keeps only the events a date range on activityDateTime asks for', async () => {
    const all = (await graph.get('/v1.0/deviceManagement/auditEvents')).body.value!;
    const since = new Date(now.getTime() - 30 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const { status, body } = await graph.get(`/v1.0/deviceManagement/auditEvents?$filter=${encodeURIComponent(`activityDateTime ge ${since}`)}`);
    expect(status).toBe(200);
    expect(body.value!.length).toBeGreaterThan(0);
    expect(body.value!.length).toBeLessThan(all.length);
    expect(body.value!.every((event) => Date.parse(String(event.activityDateTime)) >= Date.parse(since))).toBe(true);
    const until = new Date(now.getTime() - 10 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const bounded = await graph.get(`/v1.0/deviceManagement/auditEvents?$filter=${encodeURIComponent(`activityDateTime ge ${since} and activityDateTime le ${until}`)}`);
    expect(bounded.body.value!.every((event) => Date.parse(String(event.activityDateTime)) <= Date.parse(until))).toBe(true);
    expect(bounded.body.value!.length).toBeLessThan(body.value!.length);
  });

  it('refuses a range on another property, or a value that is no date', async () => {
    for (const filter of ['displayName ge 2026-01-01T00:00:00Z', 'activityDateTime ge yesterday', "activityResult eq 'Success'"]) {
      const { status } = await graph.get(`/v1.0/deviceManagement/auditEvents?$filter=${encodeURIComponent(filter)}`);
      expect(status, filter).toBe(400);
    }
  });

  it('is 403 to an app holding only the configuration permissions, though it logs configuration changes', async () => {
    const app = graph.sim.addApplication({ roles: ['DeviceManagementConfiguration.Read.All'] });
    const token = await requestAppToken(graph.sim, { clientId: app.clientId, secret: app.secrets[0]! });
    const { status } = await graph.get('/v1.0/deviceManagement/auditEvents', { bearer: token });
    expect(status).toBe(403);
  });
});
