import { describe, expect, it } from 'vitest';
import * as records from '../../src/core/reports/connector-health/demo-records.js';
import { blankTenant, requestAppToken, useRawGraph } from '../support/simulated-tenant.js';

/**
 * The simulator serves the Apple MDM push certificate, ADE and VPP tokens, the Intune Connectors
 * for Active Directory and the directory's deleted items as Graph documents them (the sources are
 * beside each resource in src/sim/resources/service-configuration.ts and src/sim/directory.ts).
 */
const now = new Date('2026-11-22T09:00:00Z');
const SOFT = '33333333-3333-4333-8333-333333333333';
const LIVE = '11111111-1111-4111-8111-111111111111';

function tenantWith(grantedRoles?: string[]) {
  const tenant = blankTenant(grantedRoles ? { grantedRoles } : {});
  tenant.singletons.applePushNotificationCertificate = records.applePushNotificationCertificate({
    id: '5e1d7a3c-9b2f-4c6d-8e0a-1f3b5d7c9e2a',
    appleIdentifier: 'mdm@fabrikam.example',
    expirationDateTime: '2027-03-01T00:00:00Z',
    now,
  });
  tenant.collections.depOnboardingSettings = [
    records.depOnboardingSetting({
      id: '8b1d3f5a-7c9e-4b2d-a4f6-1c3e5a7b9d2f',
      tokenName: 'iPhones',
      tokenExpirationDateTime: '2027-05-01T00:00:00Z',
      lastSuccessfulSyncDateTime: '2026-11-22T06:00:00Z',
      now,
    }),
  ];
  tenant.collections.vppTokens = [
    records.vppToken({
      id: '7c2e4a6b-1d3f-4e5a-9b8c-0d2e4f6a8b1c',
      organizationName: 'Fabrikam',
      locationName: 'HQ',
      state: 'duplicateLocationId',
      expirationDateTime: '2027-04-01T00:00:00Z',
      lastSyncDateTime: '2026-11-22T05:00:00Z',
      lastSyncStatus: 'completed',
      now,
    }),
  ];
  tenant.collections.domainJoinConnectors = [
    records.domainJoinConnector({
      id: '3a5c7e9b-2d4f-4a6c-8e1b-3d5f7a9c1e2b',
      displayName: 'ODJ-01',
      state: 'error',
      version: '6.2504.2001.8',
      lastConnectionDateTime: '2026-11-22T07:00:00Z',
    }),
  ];
  tenant.groups.set(LIVE, { id: LIVE, displayName: 'Sales laptops', members: [] });
  tenant.deletedGroups = new Map([[SOFT, { id: SOFT, displayName: 'Sales iPads', deletedDateTime: '2026-11-17T09:00:00Z' }]]);
  return tenant;
}

describe('the Apple and Active Directory resources', () => {
  const graph = useRawGraph(tenantWith());

  it('serves ADE tokens and connectors for Active Directory on beta only, as the v1.0 schema has neither', async () => {
    expect((await graph.get('/v1.0/deviceManagement/depOnboardingSettings')).status).toBe(400);
    expect((await graph.get('/v1.0/deviceManagement/domainJoinConnectors')).status).toBe(400);
    const ade = await graph.get('/beta/deviceManagement/depOnboardingSettings');
    expect(ade.body.value?.map((token) => [token.tokenName, token.tokenType])).toEqual([['iPhones', 'dep']]);
    const ad = await graph.get('/beta/deviceManagement/domainJoinConnectors');
    expect(ad.body.value?.map((connector) => [connector.state, connector.version])).toEqual([['error', '6.2504.2001.8']]);
  });

  it('serves the push certificate on both segments, its certificate unless $select leaves it out', async () => {
    for (const version of ['v1.0', 'beta']) {
      const whole = await graph.get(`/${version}/deviceManagement/applePushNotificationCertificate`);
      expect(whole.status).toBe(200);
      expect(whole.body.certificate).toBe(records.APPLE_PUSH_CERTIFICATE_LOOK_ALIKE);
    }
    const selected = await graph.get('/v1.0/deviceManagement/applePushNotificationCertificate?$select=id,expirationDateTime');
    expect(
      Object.keys(selected.body)
        .filter((key) => !key.startsWith('@'))
        .sort(),
    ).toEqual(['expirationDateTime', 'id']);
  });

  it('serves VPP tokens with their token unless $select leaves it out; /v1.0 without beta-only properties, the state as stored', async () => {
    const v1 = await graph.get('/v1.0/deviceAppManagement/vppTokens');
    expect(v1.body.value?.[0]).toMatchObject({ token: records.VPP_TOKEN_LOOK_ALIKE, state: 'duplicateLocationId', organizationName: 'Fabrikam' });
    expect(v1.body.value?.[0]).not.toHaveProperty('displayName');
    expect(v1.body.value?.[0]).not.toHaveProperty('locationName');
    const beta = await graph.get('/beta/deviceAppManagement/vppTokens');
    expect(beta.body.value?.[0]).toMatchObject({ displayName: 'Fabrikam (HQ)', locationName: 'HQ' });
    const selected = await graph.get('/v1.0/deviceAppManagement/vppTokens?$select=id,state');
    expect(selected.body.value?.[0]).not.toHaveProperty('token');
  });

  it('answers a soft-deleted group from deleted items and 404 from /groups; anything else 404 from deleted items', async () => {
    const deleted = await graph.get(`/v1.0/directory/deletedItems/${SOFT}?$select=id,displayName,deletedDateTime`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ '@odata.type': '#microsoft.graph.group', id: SOFT, displayName: 'Sales iPads', deletedDateTime: '2026-11-17T09:00:00Z' });
    expect(deleted.body).not.toHaveProperty('securityEnabled');
    expect((await graph.get(`/v1.0/groups/${SOFT}`)).status).toBe(404);
    expect((await graph.get(`/v1.0/directory/deletedItems/${LIVE}`)).body.error?.code).toBe('Request_ResourceNotFound');
    expect((await graph.get(`/v1.0/groups/${LIVE}`)).status).toBe(200);
  });
});

describe('the permissions each documents', () => {
  // DeviceManagementServiceConfig.Read.All and GroupMember.Read.All only.
  const graph = useRawGraph(tenantWith(['DeviceManagementServiceConfig.Read.All', 'GroupMember.Read.All']));

  it('refuses the push certificate and the connectors to DeviceManagementServiceConfig.Read.All, and gives it the tokens', async () => {
    const token = await requestAppToken(graph.sim);
    expect((await graph.get('/v1.0/deviceManagement/applePushNotificationCertificate', { bearer: token })).status).toBe(403);
    expect((await graph.get('/beta/deviceManagement/domainJoinConnectors', { bearer: token })).status).toBe(403);
    expect((await graph.get('/beta/deviceManagement/depOnboardingSettings', { bearer: token })).status).toBe(200);
    expect((await graph.get('/v1.0/deviceAppManagement/vppTokens?$select=id', { bearer: token })).status).toBe(200);
  });

  it('refuses deleted items to GroupMember.Read.All, which reads /groups', async () => {
    expect((await graph.get(`/v1.0/directory/deletedItems/${SOFT}`)).status).toBe(403);
    expect((await graph.get(`/v1.0/groups/${LIVE}`)).status).toBe(200);
  });
});
