import { describe, expect, it } from 'vitest';
import { GraphRequestRefusedError } from '../../src/core/graph/graph-error.js';
import { PRODUCT_READS } from '../../src/core/upstream-reads.js';
import { UpstreamAllowList } from '../../src/graph/upstream-allow-list.js';
import type { AllowListOptions } from '../../src/graph/upstream-allow-list.js';

// The allow-list the app's client holds: derived from the reads the reports and "what applies" declare.
const allowList = new UpstreamAllowList(PRODUCT_READS);
const UPSTREAM_PATHS = allowList.paths;
const BETA_COVERAGE_PATHS = allowList.betaCoveragePaths;
const isAllowedUpstreamPath = (path: string, options?: AllowListOptions) => allowList.isAllowed(path, options);
const assertAllowedRequest = (method: string, path: string, url?: URL, options?: AllowListOptions) => allowList.assertAllowed(method, path, url, options);
const coveragePath = (path: string, options?: AllowListOptions) => allowList.coveragePath(path, options);
const selectsSecretFields = (url: URL) => allowList.selectsSecretFields(url);

describe('the derived allow-list', () => {
  // Pinned: a new declared read changes this list, so the path it adds is seen in review.
  it('is every path the reports and "what applies" declare, and nothing else', () => {
    expect([...UPSTREAM_PATHS].sort()).toMatchInlineSnapshot(`
      [
        "/beta/deviceAppManagement/mobileAppRelationships",
        "/beta/deviceAppManagement/mobileApps/{id}/assignments",
        "/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings",
        "/beta/deviceManagement/assignmentFilters",
        "/beta/deviceManagement/compliancePolicies",
        "/beta/deviceManagement/configurationPolicies",
        "/beta/deviceManagement/configurationPolicies/{id}/settings",
        "/beta/deviceManagement/configurationPolicyTemplates",
        "/beta/deviceManagement/depOnboardingSettings",
        "/beta/deviceManagement/deviceCompliancePolicies/{id}/assignments",
        "/beta/deviceManagement/deviceConfigurationConflictSummary",
        "/beta/deviceManagement/deviceConfigurations/{id}/assignments",
        "/beta/deviceManagement/deviceHealthScripts",
        "/beta/deviceManagement/deviceManagementScripts",
        "/beta/deviceManagement/deviceShellScripts",
        "/beta/deviceManagement/domainJoinConnectors",
        "/beta/deviceManagement/groupPolicyConfigurations",
        "/beta/deviceManagement/intents",
        "/beta/deviceManagement/managedDevices/{id}",
        "/beta/deviceManagement/mobileThreatDefenseConnectors",
        "/beta/deviceManagement/ndesConnectors",
        "/beta/deviceManagement/operationApprovalPolicies",
        "/beta/deviceManagement/operationApprovalRequests",
        "/beta/deviceManagement/roleAssignments",
        "/beta/deviceManagement/roleScopeTags",
        "/beta/deviceManagement/templates",
        "/beta/deviceManagement/windowsAutopilotSettings",
        "/beta/deviceManagement/windowsDriverUpdateProfiles",
        "/beta/deviceManagement/windowsFeatureUpdateProfiles",
        "/beta/deviceManagement/windowsQualityUpdatePolicies",
        "/beta/deviceManagement/windowsQualityUpdateProfiles",
        "/v1.0/deviceAppManagement/mobileApps",
        "/v1.0/deviceAppManagement/vppTokens",
        "/v1.0/deviceManagement/applePushNotificationCertificate",
        "/v1.0/deviceManagement/auditEvents",
        "/v1.0/deviceManagement/deviceCompliancePolicies",
        "/v1.0/deviceManagement/deviceConfigurations",
        "/v1.0/deviceManagement/deviceConfigurations/{id}",
        "/v1.0/deviceManagement/deviceManagementPartners",
        "/v1.0/deviceManagement/managedDevices",
        "/v1.0/deviceManagement/managedDevices/{id}",
        "/v1.0/deviceManagement/mobileThreatDefenseConnectors",
        "/v1.0/deviceManagement/roleDefinitions",
        "/v1.0/deviceManagement/roleDefinitions/{id}/roleAssignments",
        "/v1.0/deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance",
        "/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance",
        "/v1.0/devices(deviceId='{id}')",
        "/v1.0/devices(deviceId='{id}')/memberOf",
        "/v1.0/devices(deviceId='{id}')/transitiveMemberOf",
        "/v1.0/directory/deletedItems/{id}",
        "/v1.0/directory/deviceLocalCredentials",
        "/v1.0/groups",
        "/v1.0/groups/{id}",
        "/v1.0/groups/{id}/memberOf",
        "/v1.0/groups/{id}/members",
        "/v1.0/informationProtection/bitlocker/recoveryKeys",
        "/v1.0/users/{id}/managedDevices",
        "/v1.0/users/{id}/transitiveMemberOf",
      ]
    `);
  });

  it('refuses a path no declaration names, and takes one as soon as a declaration names it', () => {
    const read = {
      path: '/v1.0/deviceManagement/deviceCategories',
      permissions: ['DeviceManagementManagedDevices.Read.All'],
      permissionsPage: 'https://learn.microsoft.com/graph/api/intune-shared-devicecategory-list',
      optional: false,
      why: 'a test',
    } as const;
    expect(isAllowedUpstreamPath(read.path)).toBe(false);
    expect(new UpstreamAllowList([...PRODUCT_READS, read]).isAllowed(read.path)).toBe(true);
  });
});

describe('upstream allow-list', () => {
  it("holds the specification's paths (20 of its 21: managed Google Play is read on beta, the v1.0 metadata declaring none) and the reads Intune's meaning needs beside them", () => {
    // The managed Google Play settings on beta; report 1's beta re-read of Mobile Threat
    // Defense connectors; report 2's relationships, filters and per-object assignments; report 3's
    // settings and templates; report 1's Apple push certificate, ADE and VPP tokens and connectors
    // for Active Directory; report 2's deleted groups; Intune's audit log for reports 2 and 3;
    // report 2's assignable types only beta has: Administrative Templates, macOS shell scripts,
    // Windows feature, quality and driver update profiles, quality update policies and settings
    // catalog compliance policies; what applies' reads about one subject (a device by id, groups by
    // name, a user's, a group's and a device's memberships, the Entra device, and on beta a
    // device's scope tags for a viewer limited to them); the viewer scope's role assignments, scope
    // tags and admin groups' members; report 7's conflict summary, device restrictions profiles and
    // users' enrolled devices; the viewer scope's role definitions and one role's assignments.
    expect(UPSTREAM_PATHS).toHaveLength(58);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/deviceConfigurations/0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/deviceConfigurations/all')).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/users/0f8fad5b-d9cb-469f-a165-70867728950e/managedDevices')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/users/everyone/managedDevices')).toBe(false);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/roleAssignments')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/roleAssignments')).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/auditEvents')).toBe(true);
    expect(isAllowedUpstreamPath('/beta/deviceAppManagement/mobileAppRelationships')).toBe(true);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/assignmentFilters')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/deviceAppManagement/mobileAppRelationships')).toBe(false);
  });

  it("allows a settings catalog policy's settings by GUID only, and the baseline templates", () => {
    expect(isAllowedUpstreamPath('/beta/deviceManagement/configurationPolicies/0f8fad5b-d9cb-469f-a165-70867728950e/settings')).toBe(true);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/configurationPolicies/all/settings')).toBe(false);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/configurationPolicies/0f8fad5b-d9cb-469f-a165-70867728950e/assignments')).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/configurationPolicies/0f8fad5b-d9cb-469f-a165-70867728950e/settings')).toBe(false);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/configurationPolicyTemplates')).toBe(true);
  });

  it("allows a profile's, a compliance policy's and an app's beta assignments by GUID only", () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(isAllowedUpstreamPath(`/beta/deviceManagement/deviceConfigurations/${id}/assignments`)).toBe(true);
    expect(isAllowedUpstreamPath(`/beta/deviceManagement/deviceCompliancePolicies/${id}/assignments`)).toBe(true);
    expect(isAllowedUpstreamPath(`/beta/deviceAppManagement/mobileApps/${id}/assignments`)).toBe(true);
    expect(isAllowedUpstreamPath('/beta/deviceAppManagement/mobileApps/all/assignments')).toBe(false);
    expect(isAllowedUpstreamPath(`/beta/deviceAppManagement/mobileApps/${id}/assignments/${id}`)).toBe(false);
    expect(isAllowedUpstreamPath(`/v1.0/deviceManagement/deviceConfigurations/${id}/assignments`)).toBe(false);
    expect(isAllowedUpstreamPath(`/beta/deviceManagement/deviceHealthScripts/${id}/assignments`)).toBe(false);
  });

  it('allows a group by GUID only', () => {
    expect(isAllowedUpstreamPath('/v1.0/groups/0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    // The groups a group is in, for what applies, and its direct members, for the viewer scope's admin
    // groups; its other relationships stay refused.
    expect(isAllowedUpstreamPath('/v1.0/groups/0f8fad5b-d9cb-469f-a165-70867728950e/memberOf')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/groups/0f8fad5b-d9cb-469f-a165-70867728950e/members')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/groups/0f8fad5b-d9cb-469f-a165-70867728950e/transitiveMembers')).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/groups/everyone/memberOf')).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/groups/everyone')).toBe(false);
  });

  it("allows a user's and a device's memberships by GUID only, for what applies", () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(isAllowedUpstreamPath(`/v1.0/users/${id}/transitiveMemberOf`)).toBe(true);
    // A user's direct groups are not read: user-list-memberof takes Directory.Read.All for an application.
    expect(isAllowedUpstreamPath(`/v1.0/users/${id}/memberOf`)).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/users/someone@contoso.example/transitiveMemberOf')).toBe(false);
    expect(isAllowedUpstreamPath(`/v1.0/users/${id}`)).toBe(false);
    expect(isAllowedUpstreamPath(`/v1.0/devices(deviceId='${id}')/transitiveMemberOf`)).toBe(true);
    expect(isAllowedUpstreamPath(`/v1.0/devices(deviceId='${id}')`)).toBe(true);
    expect(isAllowedUpstreamPath("/v1.0/devices(deviceId='x')/memberOf")).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/devices')).toBe(false);
  });

  it('keeps each path on its version segment', () => {
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/managedDevices')).toBe(true);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/managedDevices')).toBe(false);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/ndesConnectors')).toBe(false);
  });

  it('takes exactly the four beta twins, and only when complete coverage is asked for (GRAPH_BETA_COVERAGE)', () => {
    expect(BETA_COVERAGE_PATHS).toEqual([
      '/beta/deviceManagement/deviceConfigurations',
      '/beta/deviceManagement/deviceCompliancePolicies',
      '/beta/deviceAppManagement/mobileApps',
      '/beta/deviceManagement/managedDevices',
    ]);
    for (const path of BETA_COVERAGE_PATHS) {
      expect(isAllowedUpstreamPath(path)).toBe(false);
      expect(isAllowedUpstreamPath(path, { betaCoverage: true })).toBe(true);
      expect(UPSTREAM_PATHS).toContain(path.replace('/beta/', '/v1.0/'));
    }
    expect(() => assertAllowedRequest('GET', '/beta/deviceManagement/managedDevices')).toThrow(GraphRequestRefusedError);
    expect(() => assertAllowedRequest('GET', '/beta/deviceManagement/managedDevices', undefined, { betaCoverage: true })).not.toThrow();
    // Nothing else comes with it.
    expect(isAllowedUpstreamPath('/beta/deviceManagement/deviceManagementPartners', { betaCoverage: true })).toBe(false);
    expect(coveragePath('/v1.0/deviceManagement/managedDevices', { betaCoverage: true })).toBe('/beta/deviceManagement/managedDevices');
    expect(coveragePath('/v1.0/deviceManagement/managedDevices')).toBe('/v1.0/deviceManagement/managedDevices');
    expect(coveragePath('/v1.0/deviceManagement/mobileThreatDefenseConnectors', { betaCoverage: true })).toBe('/v1.0/deviceManagement/mobileThreatDefenseConnectors');
    expect(() => assertAllowedRequest('POST', '/beta/deviceManagement/managedDevices', undefined, { betaCoverage: true })).toThrow(GraphRequestRefusedError);
  });

  it('takes the managed devices’ beta twin for their scope tags only when the viewer scope is on, and nothing else', () => {
    expect(allowList.scopeTagPaths).toEqual(['/beta/deviceManagement/managedDevices']);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/managedDevices')).toBe(false);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/managedDevices', { scopeTags: true })).toBe(true);
    expect(() => assertAllowedRequest('GET', '/beta/deviceManagement/managedDevices', undefined, { scopeTags: true })).not.toThrow();
    expect(() => assertAllowedRequest('POST', '/beta/deviceManagement/managedDevices', undefined, { scopeTags: true })).toThrow(GraphRequestRefusedError);
    // Report 2's /v1.0 lists keep to /v1.0 with the scope on: their beta twins return beta-only types.
    for (const path of BETA_COVERAGE_PATHS.filter((twin) => twin !== '/beta/deviceManagement/managedDevices')) {
      expect(isAllowedUpstreamPath(path, { scopeTags: true }), path).toBe(false);
    }
    // The scope does not move any read by itself: the load that declares the twin chooses it.
    expect(coveragePath('/v1.0/deviceManagement/managedDevices', { scopeTags: true })).toBe('/v1.0/deviceManagement/managedDevices');
  });

  it.each(['POST', 'PATCH', 'PUT', 'DELETE'])('refuses %s before sending', (method) => {
    expect(() => assertAllowedRequest(method, '/v1.0/deviceManagement/managedDevices')).toThrow(GraphRequestRefusedError);
  });

  it('allows the batch POST on either version and nothing else by POST', () => {
    expect(() => assertAllowedRequest('POST', '/v1.0/$batch')).not.toThrow();
    expect(() => assertAllowedRequest('POST', '/beta/$batch')).not.toThrow();
    for (const path of ['/v2.0/$batch', '/beta/$batch/x', '/beta/deviceManagement/configurationPolicies']) {
      expect(() => assertAllowedRequest('POST', path)).toThrow(GraphRequestRefusedError);
    }
  });
});

describe('secret fields of the escrow lists', () => {
  it('are never selected, by our code or by a nextLink', () => {
    const url = (path: string) => new URL(path, 'https://graph.microsoft.com');
    expect(selectsSecretFields(url('/v1.0/informationProtection/bitlocker/recoveryKeys?$select=id,key'))).toBe(true);
    expect(selectsSecretFields(url('/v1.0/directory/deviceLocalCredentials?%24select=Credentials'))).toBe(true);
    expect(selectsSecretFields(url('/v1.0/directory/deviceLocalCredentials?$skiptoken=abc'))).toBe(false);
    expect(selectsSecretFields(url('/v1.0/informationProtection/bitlocker/recoveryKeys?$select=id,deviceId,volumeType'))).toBe(false);
    expect(selectsSecretFields(url('/v1.0/deviceManagement/managedDevices?$select=key'))).toBe(false);
    expect(() => assertAllowedRequest('GET', '/v1.0/informationProtection/bitlocker/recoveryKeys', url('/v1.0/informationProtection/bitlocker/recoveryKeys?$select=key'))).toThrow(
      GraphRequestRefusedError,
    );
  });
});

describe("the VPP tokens' own token", () => {
  const url = (path: string) => new URL(path, 'https://graph.microsoft.com');
  const VPP = '/v1.0/deviceAppManagement/vppTokens';

  it('is allowed only with a $select that leaves `token` out, by our code or by a nextLink', () => {
    expect(isAllowedUpstreamPath(VPP)).toBe(true);
    expect(selectsSecretFields(url(`${VPP}?$select=id,state,expirationDateTime`))).toBe(false);
    expect(selectsSecretFields(url(`${VPP}?%24select=id,state&$skiptoken=abc`))).toBe(false);
    // Graph returns `token` unless $select leaves it out.
    expect(selectsSecretFields(url(VPP))).toBe(true);
    expect(selectsSecretFields(url(`${VPP}?$skiptoken=abc`))).toBe(true);
    expect(selectsSecretFields(url(`${VPP}?$select=id,Token`))).toBe(true);
    expect(selectsSecretFields(url(`${VPP}?$select=id&$expand=token`))).toBe(true);
    // Only this list: `token` means nothing secret elsewhere.
    expect(selectsSecretFields(url('/v1.0/deviceManagement/managedDevices?$select=token'))).toBe(false);
    expect(() => assertAllowedRequest('GET', VPP, url(VPP))).toThrow(GraphRequestRefusedError);
    expect(() => assertAllowedRequest('GET', VPP, url(`${VPP}?$select=id,token`))).toThrow(GraphRequestRefusedError);
    expect(() => assertAllowedRequest('GET', VPP, url(`${VPP}?$select=id,state`))).not.toThrow();
  });

  it("allows report 1's Apple and Active Directory reads on their segments, and a deleted item by GUID only", () => {
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/applePushNotificationCertificate')).toBe(true);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/depOnboardingSettings')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/depOnboardingSettings')).toBe(false);
    // Managed Google Play on beta only: the v1.0 metadata does not declare it.
    expect(isAllowedUpstreamPath('/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/deviceManagement/androidManagedStoreAccountEnterpriseSettings')).toBe(false);
    expect(isAllowedUpstreamPath('/beta/deviceManagement/domainJoinConnectors')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/directory/deletedItems/0f8fad5b-d9cb-469f-a165-70867728950e')).toBe(true);
    expect(isAllowedUpstreamPath('/v1.0/directory/deletedItems/microsoft.graph.group')).toBe(false);
  });
});
