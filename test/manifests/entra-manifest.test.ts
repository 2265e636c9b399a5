import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IT_STAFF_ROLE, TRIAGER_ROLE } from '../../src/server/tab-access.js';
import { GRAPH_APPLICATION_PERMISSIONS } from '../../src/core/graph/graph-permissions.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { permissionsAskedFor } from '../../src/core/upstream-reads.js';

/** The Microsoft Graph app manifest format (https://learn.microsoft.com/entra/identity-platform/reference-microsoft-graph-app-manifest), which the Toolkit's aadApp/update reads. */
interface EntraManifest {
  groupMembershipClaims?: string;
  requiredResourceAccess: Array<{ resourceAppId: string; resourceAccess: Array<{ id: string; type: string }> }>;
  appRoles: Array<{ value: string; allowedMemberTypes: string[]; isEnabled: boolean }>;
  api: {
    requestedAccessTokenVersion: number;
    oauth2PermissionScopes: Array<{ id: string; value: string; type: string; isEnabled: boolean }>;
    preAuthorizedApplications: Array<{ appId: string; delegatedPermissionIds: string[] }>;
  };
}

const manifest = JSON.parse(readFileSync('aad.manifest.json', 'utf8')) as EntraManifest;
const readme = readFileSync('README.md', 'utf8');

describe('the Entra app manifest', () => {
  it('asks for exactly the application permissions the reports declare, by their ids, and no secret-reading one', () => {
    const requested = manifest.requiredResourceAccess.flatMap((resource) => resource.resourceAccess.map((access) => `${resource.resourceAppId}|${access.type}|${access.id}`));
    const needed = new Set(REPORTS.definitions.flatMap((report) => report.permissions).map((permission) => `Microsoft Graph|Role|${GRAPH_APPLICATION_PERMISSIONS[permission]}`));
    expect(new Set(requested)).toEqual(needed);
    // BitlockerKey.Read.All and DeviceLocalCredential.Read.All would read the secrets themselves.
    expect(requested.some((entry) => ['57f1cf28-c0c4-4ec3-9a30-19a2eaaf2f6e', '884b599e-4d48-43a5-ba94-15c414d00588'].some((id) => entry.endsWith(id)))).toBe(false);
  });

  it('asks for exactly the permissions the declared reads ask for (the reports\' and "what applies"\'), each named in the README', () => {
    const requested = manifest.requiredResourceAccess.flatMap((resource) => resource.resourceAccess.map((access) => access.id));
    expect(new Set(requested)).toEqual(new Set(permissionsAskedFor().map((permission) => GRAPH_APPLICATION_PERMISSIONS[permission])));
    for (const permission of permissionsAskedFor()) expect(readme).toContain(`\`${permission}\``);
  });

  it("names each permission as Entra does: the table's names are Graph's exact values, case included", () => {
    expect(Object.keys(GRAPH_APPLICATION_PERMISSIONS)).toContain('BitlockerKey.ReadBasic.All');
    expect(Object.keys(GRAPH_APPLICATION_PERMISSIONS).filter((name) => /bitlocker/i.test(name))).toEqual(['BitlockerKey.ReadBasic.All']);
    expect(new Set(Object.values(GRAPH_APPLICATION_PERMISSIONS)).size).toBe(Object.keys(GRAPH_APPLICATION_PERMISSIONS).length);
    for (const permission of REPORTS.definitions.flatMap((report) => report.permissions)) expect(readme).toContain(`\`${permission}\``);
    expect(readme).not.toMatch(/BitLockerKey/);
  });

  it('defines the IT staff app role the tab API requires, for users, and issues v2.0 tokens', () => {
    expect(manifest.appRoles).toEqual([
      expect.objectContaining({ value: IT_STAFF_ROLE, allowedMemberTypes: ['User'], isEnabled: true }),
      expect.objectContaining({ value: TRIAGER_ROLE, allowedMemberTypes: ['User'], isEnabled: true }),
    ]);
    expect(manifest.api.requestedAccessTokenVersion).toBe(2);
  });

  it('asks Entra for the user’s directory roles in the token (`wids`), which the viewer scope reads, and for no group claim', () => {
    // "Set the claim to All or DirectoryRole" (Access token claims reference, `wids`); All would
    // also send every group the user is in, which the app does not read.
    expect(manifest.groupMembershipClaims).toBe('DirectoryRole');
  });

  it('is in the Microsoft Graph app manifest format throughout, not the older Azure AD Graph one whose blocks a reader of the new format drops', () => {
    for (const legacy of ['name', 'oauth2Permissions', 'accessTokenAcceptedVersion', 'preAuthorizedApplications', 'replyUrlsWithType', 'oauth2AllowImplicitFlow'])
      expect(Object.keys(manifest), legacy).not.toContain(legacy);
    expect(manifest).toMatchObject({ displayName: 'DeviceManagementHealth${{APP_NAME_SUFFIX}}', signInAudience: 'AzureADMyOrg' });
    // Teams' SSO: the access_as_user scope, pre-authorized for the Teams desktop and mobile clients and Teams on the web.
    const [scope] = manifest.api.oauth2PermissionScopes;
    expect(manifest.api.oauth2PermissionScopes).toHaveLength(1);
    expect(scope).toMatchObject({ value: 'access_as_user', type: 'User', isEnabled: true });
    expect(manifest.api.preAuthorizedApplications.map((app) => app.appId).sort()).toEqual(['1fec8e78-bce4-4aaf-ab1b-5451cc387264', '5e3ce6c0-2b1f-4285-8d4b-75ee78787346']);
    for (const app of manifest.api.preAuthorizedApplications) expect(app.delegatedPermissionIds).toEqual([scope!.id]);
  });
});
