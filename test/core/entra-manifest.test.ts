import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IT_STAFF_ROLE } from '../../src/bot/tab-access.js';
import { REPORTS } from '../../src/core/reports/registry.js';

interface EntraManifest {
  requiredResourceAccess: Array<{ resourceAppId: string; resourceAccess: Array<{ id: string; type: string }> }>;
  appRoles: Array<{ value: string; allowedMemberTypes: string[]; isEnabled: boolean }>;
  accessTokenAcceptedVersion: number;
}

const manifest = JSON.parse(readFileSync('aad.manifest.json', 'utf8')) as EntraManifest;

describe('the Entra app manifest', () => {
  it('asks for exactly the application permissions the reports declare, and no secret-reading one', () => {
    const requested = manifest.requiredResourceAccess.flatMap((resource) => resource.resourceAccess.map((access) => `${resource.resourceAppId}|${access.type}|${access.id}`));
    const needed = new Set(REPORTS.flatMap((report) => report.permissions).map((permission) => `Microsoft Graph|Role|${permission}`));
    expect(new Set(requested)).toEqual(needed);
    expect(requested.some((entry) => /BitLockerKey\.Read\.All|DeviceLocalCredential\.Read\.All/i.test(entry))).toBe(false);
  });

  it('defines the IT staff app role the tab API requires, for users, and issues v2.0 tokens', () => {
    expect(manifest.appRoles).toEqual([expect.objectContaining({ value: IT_STAFF_ROLE, allowedMemberTypes: ['User'], isEnabled: true })]);
    expect(manifest.accessTokenAcceptedVersion).toBe(2);
  });
});
