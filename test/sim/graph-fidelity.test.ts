import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphClient } from '../../src/core/graph/graph-client.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { requestAppToken, useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant({ now: new Date('2026-11-21T12:00:00Z') }), throttling: true });
let sim: Simulator;
let graph: GraphClient;
let token: string;
let dispatcher: Agent;

beforeAll(async () => {
  sim = harness.sim;
  graph = harness.client();
  dispatcher = new Agent({ connect: { ca: sim.caPem } });
  // The tenant's domain names it as well as its id does.
  token = await requestAppToken(sim, { tenant: sim.tenant.domain });
});
afterAll(() => dispatcher.close());

async function raw(path: string, headers: Record<string, string> = {}) {
  const response = await request(`${sim.graphUrl}${path}`, { headers: { authorization: `Bearer ${token}`, 'user-agent': 'fidelity-test', ...headers }, dispatcher });
  return { status: response.statusCode, body: (await response.body.json()) as Record<string, unknown> & { error?: { code: string; message: string } } };
}

describe('the demo tenant as Graph serves it', () => {
  it('issues app-only tokens shaped like Entra\'s, with the scenario\'s roles', () => {
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
    expect(claims).toMatchObject({ iss: `https://sts.windows.net/${sim.tenantId}/`, idtyp: 'app', tid: sim.tenantId, appid: sim.clientId, aud: 'https://graph.microsoft.com' });
    expect(claims.roles).toContain('BitlockerKey.ReadBasic.All');
    expect(claims.scp).toBeUndefined();
  });

  it('returns navigation properties only when expanded', async () => {
    const plain = await graph.getAll<Record<string, unknown>>('/v1.0/deviceManagement/deviceConfigurations');
    expect(plain.every((item) => !('assignments' in item))).toBe(true);
    const expanded = await graph.getAll<Record<string, unknown>>('/beta/deviceManagement/configurationPolicies', { query: { $expand: 'settings,assignments' } });
    expect(expanded.length).toBeGreaterThan(0);
    expect(expanded.every((item) => Array.isArray(item.assignments) && Array.isArray(item.settings))).toBe(true);
    const unknown = await raw('/v1.0/deviceManagement/deviceConfigurations?$expand=owner');
    expect(unknown.status).toBe(400);
  });

  it('serves singletons at the top level and beta-only resources on beta only', async () => {
    const settings = await graph.get<Record<string, unknown>>('/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings');
    expect(settings).toMatchObject({ bindStatus: 'boundAndValidated', '@odata.context': expect.stringContaining('$entity') });
    const onV1 = await raw('/v1.0/deviceManagement/androidManagedStoreAccountEnterpriseSettings');
    expect(onV1.status).toBe(400);
    expect(onV1.body.error?.message).toBe("Resource not found for the segment 'androidManagedStoreAccountEnterpriseSettings'.");
  });

  it('keeps the escrow lists to metadata and enforces their documented quirks', async () => {
    const keys = await graph.getAll<Record<string, unknown>>('/v1.0/informationProtection/bitlocker/recoveryKeys');
    expect(keys.length).toBeGreaterThan(200);
    expect(keys.some((item) => 'key' in item)).toBe(false);
    const credentials = await graph.getAll<Record<string, unknown>>('/v1.0/directory/deviceLocalCredentials');
    expect(credentials.some((item) => 'credentials' in item)).toBe(false);
    expect((await raw('/v1.0/informationProtection/bitlocker/recoveryKeys?$top=5')).status).toBe(400);
    expect((await raw('/v1.0/directory/deviceLocalCredentials', { 'user-agent': '' })).status).toBe(400);
  });

  it('answers a missing group with Graph\'s 404 and a present one with capped members', async () => {
    const [someGroup] = [...sim.tenant.groups.values()].filter((group) => group.members.length > 20);
    const found = await raw(`/v1.0/groups/${someGroup!.id}?$select=id,displayName&$expand=members($select=id)`);
    expect(found.status).toBe(200);
    expect((found.body.members as unknown[]).length).toBe(20);
    expect(found.body).not.toHaveProperty('securityEnabled');
    const missing = await raw('/v1.0/groups/0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'Request_ResourceNotFound' } } });
  });

  it('plants every finding kind of the design in the demo tenant', () => {
    const kinds = new Set(sim.tenant.declaredFindings.map((finding) => `${finding.report}/${finding.kind}`));
    expect([...kinds].sort()).toEqual(
      [
        'connector-health/connector-unhealthy',
        'assignment-hygiene/unassigned',
        'assignment-hygiene/assigned-to-missing-or-empty-groups',
        'assignment-hygiene/exclusions-only',
        'assignment-hygiene/all-users-and-all-devices',
        'security-posture/asr-rule-audit',
        'security-posture/firewall-profile-off',
        'security-posture/baseline-outdated',
        'escrow-gaps/missing-recovery-key',
        'escrow-gaps/missing-laps-password',
        'admin-approval/area-unprotected',
        'startup-reliability/slow-startup',
        'startup-reliability/blue-screens',
        'startup-reliability/unreliable-app',
      ].sort(),
    );
    const declaredIds = new Set(sim.tenant.declaredFindings.map((finding) => finding.subjectId));
    expect(declaredIds.size).toBeGreaterThan(30);
  });

  it('builds the same tenant from the same seed', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(buildDemoTenant({ now }).declaredFindings).toEqual(buildDemoTenant({ now }).declaredFindings);
  });

  it('refuses tokens it did not issue and requests without one', async () => {
    expect((await raw('/v1.0/deviceManagement/managedDevices', { authorization: '' })).body.error?.code).toBe('InvalidAuthenticationToken');
    const forged = `${token.split('.').slice(0, 2).join('.')}.${'A'.repeat(40)}`;
    expect((await raw('/v1.0/deviceManagement/managedDevices', { authorization: `Bearer ${forged}` })).status).toBe(401);
  });
});
