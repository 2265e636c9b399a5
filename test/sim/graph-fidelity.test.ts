import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphClient } from '../../src/graph/graph-client.js';
import type { Simulator } from '../../src/sim/simulator.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import * as records from '../../src/core/reports/demo-records.js';
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
  it("issues app-only tokens shaped like Entra's, with the scenario's roles", () => {
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

  it("gives a policy's settings their definitions only to $expand=settingDefinitions, and never inside $expand=settings", async () => {
    // deviceManagementConfigurationSetting's `settingDefinitions` is a relationship ("List of related
    // Setting Definitions"): learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsetting?view=graph-rest-beta.
    const policy = sim.tenant.collections.configurationPolicies.find((item) => item.name === 'Defender - cloud protection on (Engineering)')!;
    const path = `/beta/deviceManagement/configurationPolicies/${policy.id}/settings`;
    const plain = await graph.getAll<Record<string, unknown>>(path);
    expect(plain.length).toBe(1);
    expect(plain.every((item) => !('settingDefinitions' in item))).toBe(true);
    const expanded = await graph.getAll<Record<string, unknown>>(path, { query: { $expand: 'settingDefinitions' } });
    expect(expanded[0]!.settingDefinitions).toEqual([
      expect.objectContaining({ id: 'device_vendor_msft_policy_config_defender_allowcloudprotection', displayName: 'Allow Cloud Protection' }),
    ]);
    const listed = await graph.getAll<{ id: string; settings: Array<Record<string, unknown>> }>('/beta/deviceManagement/configurationPolicies', { query: { $expand: 'settings' } });
    const settings = listed.flatMap((item) => item.settings);
    expect(settings.length).toBeGreaterThan(0);
    expect(settings.every((item) => !('settingDefinitions' in item))).toBe(true);
  });

  it('serves singletons at the top level and beta-only resources on beta only', async () => {
    const settings = await graph.get<Record<string, unknown>>('/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings');
    expect(settings).toMatchObject({ bindStatus: 'boundAndValidated', '@odata.context': expect.stringContaining('$entity') });
    const onV1 = await raw('/v1.0/deviceManagement/androidManagedStoreAccountEnterpriseSettings');
    expect(onV1.status).toBe(400);
    expect(onV1.body.error?.message).toBe("Resource not found for the segment 'androidManagedStoreAccountEnterpriseSettings'.");
  });

  it('serves the assignable types only beta declares on beta only, their assignments expanded with the filter fields', async () => {
    // None of groupPolicyConfiguration, deviceShellScript, the Windows update profiles and policies
    // or deviceManagementCompliancePolicy is in the v1.0 schema; their beta list pages
    // (intune-grouppolicy-grouppolicyconfiguration-list?view=graph-rest-beta and siblings) document
    // `assignments`, whose targets carry the filter fields on beta.
    for (const collection of [
      'groupPolicyConfigurations',
      'deviceShellScripts',
      'windowsFeatureUpdateProfiles',
      'windowsQualityUpdateProfiles',
      'windowsQualityUpdatePolicies',
      'windowsDriverUpdateProfiles',
      'compliancePolicies',
    ]) {
      const onV1 = await raw(`/v1.0/deviceManagement/${collection}`);
      expect(onV1.status, collection).toBe(400);
      expect(onV1.body.error?.message).toBe(`Resource not found for the segment '${collection}'.`);
      const onBeta = await raw(`/beta/deviceManagement/${collection}?$expand=assignments`);
      expect(onBeta.status, collection).toBe(200);
    }
    const admx = await graph.getAll<{ displayName: string; assignments: Array<{ target: Record<string, unknown> }> }>('/beta/deviceManagement/groupPolicyConfigurations', {
      query: { $expand: 'assignments', $select: 'id,displayName' },
    });
    expect(admx.length).toBeGreaterThan(0);
    expect(admx.flatMap((item) => item.assignments).every((assignment) => 'deviceAndAppManagementAssignmentFilterType' in assignment.target)).toBe(true);
    // A property the type does not declare is refused, as Graph refuses it.
    expect((await raw('/beta/deviceManagement/deviceShellScripts?$select=id,platforms')).status).toBe(400);
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

  it("answers a missing group with Graph's 404 and a present one with capped members", async () => {
    const [someGroup] = [...sim.tenant.groups.values()].filter((group) => group.members.length > 20);
    const found = await raw(`/v1.0/groups/${someGroup!.id}?$select=id,displayName&$expand=members($select=id)`);
    expect(found.status).toBe(200);
    expect((found.body.members as unknown[]).length).toBe(20);
    expect(found.body).not.toHaveProperty('securityEnabled');
    const missing = await raw('/v1.0/groups/0f8fad5b-d9cb-469f-a165-70867728950e');
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'Request_ResourceNotFound' } } });
  });

  it("serves the conflicts devices reported on beta only, each id the profiles' ids in lexicographical order joined by underscores", async () => {
    // learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationconflictsummary-list?view=graph-rest-beta
    // and the resource's page (its `id`): beta only, no query options documented.
    const entries = await graph.getAll<{ id: string; conflictingDeviceConfigurations: Array<{ id: string }>; deviceCheckinsImpacted: number }>(
      '/beta/deviceManagement/deviceConfigurationConflictSummary',
    );
    expect(entries.length).toBe(2);
    for (const entry of entries) {
      const ids = entry.conflictingDeviceConfigurations.map((profile) => profile.id);
      expect(entry.id).toBe([...ids].sort().join('_'));
      expect(ids.every((id) => sim.tenant.collections.deviceConfigurations.some((profile) => profile.id === id))).toBe(true);
      expect(entry.deviceCheckinsImpacted).toBeGreaterThan(0);
    }
    expect((await raw('/v1.0/deviceManagement/deviceConfigurationConflictSummary')).status).toBe(400);
    const filtered = await raw('/beta/deviceManagement/deviceConfigurationConflictSummary?$filter=deviceCheckinsImpacted%20eq%207');
    expect(filtered.status).toBe(400);
    expect(filtered.body.error?.message).toContain('filter');
  });

  it('plants every finding kind of the design in the demo tenant', () => {
    const kinds = new Set(sim.tenant.declaredFindings.map((finding) => `${finding.report}/${finding.kind}`));
    expect([...kinds].sort()).toEqual(
      [
        'connector-health/connector-unhealthy',
        'connector-health/apple-token-expiring',
        'connector-health/ade-token-unhealthy',
        'connector-health/vpp-token-unhealthy',
        'connector-health/ad-connector-unhealthy',
        'assignment-hygiene/unassigned',
        'assignment-hygiene/assigned-to-missing-or-empty-groups',
        'assignment-hygiene/assigned-to-restorable-deleted-groups',
        'assignment-hygiene/exclusions-only',
        'assignment-hygiene/all-users-and-all-devices',
        'security-posture/asr-rule-audit',
        'security-posture/firewall-profile-off',
        'security-posture/baseline-outdated',
        'escrow-gaps/missing-recovery-key',
        'escrow-gaps/missing-laps-password',
        'escrow-gaps/recovery-key-not-in-entra',
        'admin-approval/area-unprotected',
        'admin-approval/configuration-area-unprotected',
        'startup-reliability/slow-startup',
        'startup-reliability/blue-screens',
        'startup-reliability/unreliable-app',
        'setting-conflicts/security-setting-conflict',
        'setting-conflicts/setting-conflict',
        'setting-conflicts/reported-setting-conflict',
        'setting-conflicts/possible-setting-conflict',
        'setting-conflicts/duplicate-setting',
        'baseline-drift/setting-drifted',
        'baseline-drift/approved-policy-reassigned',
        'baseline-drift/approved-policy-unassigned',
        'baseline-drift/approved-policy-deleted',
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

/**
 * Names compared without case in `$filter eq`, as Graph compares a directory object's names (Microsoft
 * Q&A 1274766) and as a person types a device name or a UPN; a managed device's `operatingSystem` as
 * spelt (src/sim/odata-query.ts, `sameFilterString`, and src/sim/resources/devices.ts give the sources).
 */
describe('names in $filter eq, compared without case', () => {
  const values = (body: Record<string, unknown>) => (body.value as Array<Record<string, unknown>>).map((item) => item.deviceName ?? item.displayName);

  it("finds a managed device by its name and by its primary user's UPN in any case", async () => {
    for (const name of ['CONTOSO-0026', 'contoso-0026', 'Contoso-0026']) {
      const found = await raw(`/v1.0/deviceManagement/managedDevices?$filter=${encodeURIComponent(`deviceName eq '${name}'`)}&$select=id,deviceName`);
      expect(found.status).toBe(200);
      expect(values(found.body)).toEqual(['CONTOSO-0026']);
    }
    const byUpn = await raw(`/v1.0/deviceManagement/managedDevices?$filter=${encodeURIComponent("userPrincipalName eq 'USER40@Contoso-Demo.example'")}&$select=id,deviceName`);
    expect(values(byUpn.body)).toContain('CONTOSO-0040');
  });

  it("finds a group by its display name in any case, and keeps a device's operatingSystem as spelt", async () => {
    const group = await raw(`/v1.0/groups?$filter=${encodeURIComponent("displayName eq 'sales emea'")}&$select=id,displayName`);
    expect(group.status).toBe(200);
    expect(values(group.body)).toEqual(['Sales EMEA']);
    const windows = await raw(`/v1.0/deviceManagement/managedDevices?$filter=${encodeURIComponent("operatingSystem eq 'WINDOWS'")}&$select=id,deviceName`);
    expect(windows.body.value).toEqual([]);
  });
});

/**
 * `/v1.0` serves what its own schema declares and leaves the rest out without a word (the v1.0 and
 * beta metadata Microsoft publishes; src/sim/v1-schema.ts has the lists and the sources).
 */
describe('what /v1.0 leaves out, as Graph does (issue 11, points 3, 5 and 6)', () => {
  const types = (body: Record<string, unknown>) => (body.value as Array<Record<string, unknown>>).map((item) => String(item['@odata.type']));

  it('lists no configuration profile, compliance policy or app of a beta-only type on /v1.0, and all of them on /beta', async () => {
    for (const [path, betaOnly] of [
      ['/deviceManagement/deviceConfigurations', '#microsoft.graph.windowsWifiConfiguration'],
      ['/deviceManagement/deviceCompliancePolicies', '#microsoft.graph.aospDeviceOwnerCompliancePolicy'],
      ['/deviceAppManagement/mobileApps', '#microsoft.graph.winGetApp'],
    ] as const) {
      const onV1 = await raw(`/v1.0${path}`);
      const onBeta = await raw(`/beta${path}`);
      expect(onV1.status).toBe(200);
      expect(types(onV1.body)).not.toContain(betaOnly);
      expect(types(onBeta.body)).toContain(betaOnly);
      expect(types(onBeta.body).length).toBeGreaterThan(types(onV1.body).length);
    }
  });

  it('pages /v1.0 over what it shows: the nextLink chain covers exactly the v1.0 records', async () => {
    const all = await graph.getAll<Record<string, unknown>>('/v1.0/deviceManagement/deviceConfigurations');
    const firstPage = await raw('/v1.0/deviceManagement/deviceConfigurations?$top=3');
    expect(firstPage.body['@odata.nextLink']).toEqual(expect.stringContaining('$skiptoken='));
    expect(all.map((item) => String(item['@odata.type']))).not.toContain('#microsoft.graph.windows10VpnConfiguration');
    expect(new Set(all.map((item) => item.id)).size).toBe(all.length);
  });

  it("gives a device's join type on /beta only", async () => {
    const onV1 = await raw('/v1.0/deviceManagement/managedDevices?$top=5');
    const onBeta = await raw('/beta/deviceManagement/managedDevices?$top=5');
    expect((onV1.body.value as Array<Record<string, unknown>>).some((device) => 'joinType' in device)).toBe(false);
    expect((onBeta.body.value as Array<Record<string, unknown>>).every((device) => typeof device.joinType === 'string')).toBe(true);
  });

  it('carries Windows devices of each join type, a workplace-joined one enrolled by "Add work account" among them', async () => {
    // joinType members (learn.microsoft.com/graph/api/resources/intune-devices-jointype, beta) and
    // windowsAutoEnrollment, "Windows 10 automatic enrollment. (Add work account)"
    // (learn.microsoft.com/graph/api/resources/intune-devices-deviceenrollmenttype).
    const windows: Array<Record<string, unknown>> = [];
    let next: string | undefined = `/beta/deviceManagement/managedDevices?$filter=${encodeURIComponent("operatingSystem eq 'Windows'")}&$select=id,joinType,deviceEnrollmentType`;
    while (next) {
      const page = await raw(next);
      expect(page.status).toBe(200);
      windows.push(...(page.body.value as Array<Record<string, unknown>>));
      const link = page.body['@odata.nextLink'];
      next = typeof link === 'string' ? link.slice(link.indexOf('/beta/')) : undefined;
    }
    expect(new Set(windows.map((device) => device.joinType))).toEqual(new Set(['azureADJoined', 'hybridAzureADJoined', 'azureADRegistered']));
    const registered = windows.filter((device) => device.joinType === 'azureADRegistered');
    expect(registered.map((device) => device.deviceEnrollmentType)).toEqual(['windowsAutoEnrollment']);
  });

  it('sends the beta-only Mobile Threat Defense states as unknownFutureValue on /v1.0, whatever the Prefer header asks', async () => {
    const connector = {
      ...(sim.tenant.collections.mobileThreatDefenseConnectors[0] as Record<string, unknown>),
      id: 'f1e2d3c4-0000-4000-8000-00000000e770',
      partnerState: 'error',
    };
    sim.tenant.collections.mobileThreatDefenseConnectors = [...sim.tenant.collections.mobileThreatDefenseConnectors, connector];
    try {
      for (const headers of [{}, { prefer: 'include-unknown-enum-members' }] as Array<Record<string, string>>) {
        const onV1 = await raw('/v1.0/deviceManagement/mobileThreatDefenseConnectors', headers);
        const served = (onV1.body.value as Array<Record<string, unknown>>).find((item) => item.id === connector.id);
        expect(served?.partnerState).toBe('unknownFutureValue');
      }
    } finally {
      sim.tenant.collections.mobileThreatDefenseConnectors = sim.tenant.collections.mobileThreatDefenseConnectors.filter((item) => item !== connector);
    }
  });
});

describe('settings catalog paging as Intune pages it (issue 11, point 8)', () => {
  const page = async (query: string) => {
    const answer = await raw(`/beta/deviceManagement/configurationPolicies${query}`);
    return { count: (answer.body.value as unknown[]).length, next: answer.body['@odata.nextLink'] as string | undefined };
  };

  it('pages at 25, and $top lowers a page but never raises it', async () => {
    const kept = sim.tenant.collections.configurationPolicies;
    const now = new Date('2026-11-21T12:00:00Z');
    const extra = Array.from({ length: 30 }, (_, index) =>
      records.configurationPolicy({
        id: `0c0f1a2b-0000-4000-8000-${String(index).padStart(12, '0')}`,
        name: `Paging ${index}`,
        templateFamily: 'none',
        settings: [],
        targets: [],
        now,
      }),
    );
    sim.tenant.collections.configurationPolicies = [...kept, ...extra];
    try {
      for (const query of ['', '?$top=999']) {
        const first = await page(query);
        expect(first).toMatchObject({ count: 25, next: expect.stringContaining('$skiptoken=') });
      }
      expect((await page('?$top=1')).count).toBe(1);
    } finally {
      sim.tenant.collections.configurationPolicies = kept;
    }
  });

  it('sends two policies a page once their settings are expanded, the nextLink keeping the expansion', async () => {
    const first = await page('?$expand=settings,assignments');
    expect(first.count).toBe(2);
    expect(first.next).toContain('$expand=settings,assignments');
    expect((await page('?$expand=assignments')).count).toBeGreaterThan(2);
  });
});

describe("Intune's role-based access control as Graph serves it (the viewer scope)", () => {
  it('serves the role assignments on both versions, their scope tags and scope groups on /beta only, and refuses a /v1.0 $select of them', async () => {
    const beta = await raw('/beta/deviceManagement/roleAssignments?$select=id,displayName,members,roleScopeTagIds,scopeMembers,scopeType');
    expect(beta.status).toBe(200);
    const assignments = beta.body.value as Array<Record<string, unknown>>;
    expect(assignments.map((assignment) => assignment.displayName).sort()).toEqual(['Central IT (read only)', 'Europe IT', 'Europe service desk']);
    expect(assignments.find((assignment) => assignment.displayName === 'Europe IT')).toMatchObject({ roleScopeTagIds: ['1'], scopeType: 'resourceScope' });
    // v1.0's deviceAndAppManagementRoleAssignment has members and roleAssignment's fields only.
    const v1 = await raw('/v1.0/deviceManagement/roleAssignments');
    expect(v1.status).toBe(200);
    for (const assignment of v1.body.value as Array<Record<string, unknown>>) {
      expect(assignment.members).toBeDefined();
      expect('roleScopeTagIds' in assignment || 'scopeMembers' in assignment || 'scopeType' in assignment).toBe(false);
    }
    const selected = await raw('/v1.0/deviceManagement/roleAssignments?$select=id,roleScopeTagIds');
    expect(selected.status).toBe(400);
  });

  it('serves the scope tags on /beta only, the built-in Default as id "0"', async () => {
    const tags = await raw('/beta/deviceManagement/roleScopeTags?$select=id,displayName,isBuiltIn');
    expect(tags.status).toBe(200);
    expect(tags.body.value).toContainEqual({ id: '0', displayName: 'Default', isBuiltIn: true });
    expect((await raw('/v1.0/deviceManagement/roleScopeTags')).status).toBe(400);
  });

  it('serves the role definitions on both versions, built-in and custom alike, their assignments only when expanded or listed on their own', async () => {
    const list = await raw('/v1.0/deviceManagement/roleDefinitions?$select=id,displayName,isBuiltIn,rolePermissions');
    expect(list.status).toBe(200);
    const definitions = list.body.value as Array<Record<string, unknown>>;
    expect(definitions.map((definition) => [definition.displayName, definition.isBuiltIn]).sort()).toEqual([
      ['Europe policy and analytics', false],
      ['Policy and Profile Manager', true],
      ['Read Only Operator', true],
      ['Reboot only', false],
    ]);
    // The navigation is never sent unexpanded; the permissions are one resource action's allowed list.
    expect(definitions.every((definition) => !('roleAssignments' in definition))).toBe(true);
    const readOnly = definitions.find((definition) => definition.displayName === 'Read Only Operator')!;
    expect(readOnly.rolePermissions).toEqual([
      { resourceActions: [expect.objectContaining({ allowedResourceActions: expect.arrayContaining(['Microsoft.Intune_EndpointAnalytics_Read']) })] },
    ]);
    // v1.0 has no roleScopeTagIds on a role definition; beta does.
    expect((await raw('/v1.0/deviceManagement/roleDefinitions?$select=id,roleScopeTagIds')).status).toBe(400);
    expect((await raw('/beta/deviceManagement/roleDefinitions?$select=id,roleScopeTagIds')).status).toBe(200);

    // One role's assignments: the tenant's assignments themselves, $select on the base roleAssignment's properties.
    const assignments = await raw(`/v1.0/deviceManagement/roleDefinitions/${String(readOnly.id)}/roleAssignments?$select=id,displayName`);
    expect(assignments.status).toBe(200);
    expect(assignments.body.value).toEqual([{ id: expect.any(String), displayName: 'Central IT (read only)' }]);
    expect((await raw(`/v1.0/deviceManagement/roleDefinitions/${String(readOnly.id)}/roleAssignments?$select=id,members`)).status).toBe(400);
    const unselected = await raw(`/v1.0/deviceManagement/roleDefinitions/${String(readOnly.id)}/roleAssignments`);
    expect((unselected.body.value as Array<Record<string, unknown>>).every((assignment) => !('roleScopeTagIds' in assignment))).toBe(true);
    expect((await raw('/v1.0/deviceManagement/roleDefinitions/00000000-0000-4000-8000-000000000000/roleAssignments')).status).toBe(404);
    // Expanded on the list, the assignments come with the role.
    const expanded = await raw('/v1.0/deviceManagement/roleDefinitions?$expand=roleAssignments');
    const europe = (expanded.body.value as Array<Record<string, unknown>>).find((definition) => definition.displayName === 'Europe policy and analytics')!;
    expect((europe.roleAssignments as Array<Record<string, unknown>>).map((assignment) => assignment.displayName)).toEqual(['Europe IT']);
  });

  it('pages the role definitions as asked, a next link to the rest', async () => {
    const first = await raw('/v1.0/deviceManagement/roleDefinitions?$select=id&$top=2');
    expect(first.status).toBe(200);
    expect(first.body.value).toHaveLength(2);
    expect(first.body['@odata.nextLink']).toEqual(expect.stringContaining('/v1.0/deviceManagement/roleDefinitions'));
    const all = await graph.getAll<{ id: string }>('/v1.0/deviceManagement/roleDefinitions', { query: { $select: 'id', $top: '1' } });
    expect(new Set(all.map((definition) => definition.id)).size).toBe(4);
  });
});
