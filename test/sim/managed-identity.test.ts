import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { connectToDemoTenant } from '../../src/app/graph-connection.js';
import { GraphError } from '../../src/core/graph/graph-error.js';
import { createHttpTransport } from '../../src/graph/http-transport.js';
import { requestIdentityToken } from '../../src/graph/managed-identity.js';
import type { SimIdentityEndpoint } from '../../src/sim/identity-endpoint.js';
import { blankTenant, managedDevice, useTestSimulator } from '../support/simulated-tenant.js';
import { recordCredential } from '../support/suite-log.js';

const harness = useTestSimulator({
  managedIdentity: true,
  tenant: blankTenant({ collections: { ...blankTenant().collections, managedDevices: [managedDevice(1)] }, grantedRoles: ['DeviceManagementManagedDevices.Read.All'] }),
});

function identity(): SimIdentityEndpoint {
  const endpoint = harness.sim.managedIdentity;
  if (!endpoint) throw new Error('the simulator was started with managedIdentity');
  recordCredential(endpoint.header);
  return endpoint;
}

async function ask(query: Record<string, string>, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = new URL(identity().endpoint);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("the simulator's App Service identity endpoint", () => {
  const valid = () => ({ resource: 'api://AzureADTokenExchange', 'api-version': '2019-08-01', client_id: identity().identity.clientId });

  it('answers a request as App Service documents it: access_token, expires_on in epoch seconds as text, resource, token_type and client_id', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { status, body } = await ask(valid(), { 'X-IDENTITY-HEADER': identity().header });
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(['access_token', 'client_id', 'expires_on', 'resource', 'token_type']);
    expect(body).toMatchObject({ resource: 'api://AzureADTokenExchange', token_type: 'Bearer', client_id: identity().identity.clientId });
    expect(typeof body.expires_on).toBe('string');
    expect(Number(body.expires_on)).toBeGreaterThan(before);
    // The token the federated credential names: the identity's object id as subject, the exchange audience.
    expect(decodeJwt(String(body.access_token))).toMatchObject({
      aud: 'api://AzureADTokenExchange',
      sub: identity().identity.principalId,
      iss: `${harness.sim.authorityHost}/${harness.sim.tenantId}/v2.0`,
    });
  });

  it('refuses a caller without the X-IDENTITY-HEADER, or with another value', async () => {
    expect((await ask(valid(), {})).status).toBe(401);
    expect((await ask(valid(), { 'X-IDENTITY-HEADER': 'guessed' })).status).toBe(401);
  });

  it('refuses another api-version, a missing resource, another identity, and a resource the tenant has no principal for', async () => {
    const header = { 'X-IDENTITY-HEADER': identity().header };
    expect((await ask({ ...valid(), 'api-version': '2017-09-01' }, header)).status).toBe(400);
    const { resource: _resource, ...withoutResource } = valid();
    expect((await ask(withoutResource, header)).status).toBe(400);
    expect((await ask({ ...valid(), client_id: '00000000-0000-0000-0000-000000000001' }, header)).status).toBe(400);
    const { client_id: _clientId, ...unnamed } = valid();
    expect((await ask(unnamed, header)).status).toBe(400);
    expect((await ask({ ...valid(), resource: 'https://vault.azure.net' }, header)).body.message).toMatch(/AADSTS500011/);
  });
});

describe('Graph read with the managed identity alone', () => {
  it('reads Graph as the app registration: the identity token is the client assertion of a federated credential', async () => {
    const endpoint = identity();
    const before = endpoint.issued.get('api://AzureADTokenExchange') ?? 0;
    const connection = connectToDemoTenant(harness.sim, {
      credential: { kind: 'managed-identity', identity: { clientId: endpoint.identity.clientId, endpoint: endpoint.endpoint, header: endpoint.header } },
    });
    try {
      const page = await connection.graph.get<{ value: unknown[] }>('/v1.0/deviceManagement/managedDevices');
      expect(page.value).toHaveLength(1);
      expect(endpoint.issued.get('api://AzureADTokenExchange')).toBe(before + 1);
    } finally {
      await connection.close();
    }
  });

  it('is refused (AADSTS70021) when the app registration trusts another identity', async () => {
    const other = harness.sim.addApplication({ roles: ['DeviceManagementManagedDevices.Read.All'] });
    other.federatedCredentials = [{ issuer: harness.sim.entra.managedIdentityIssuer, subject: 'another-identity-object-id', audiences: ['api://AzureADTokenExchange'] }];
    const endpoint = identity();
    const connection = connectToDemoTenant(harness.sim, {
      clientId: other.clientId,
      credential: { kind: 'managed-identity', identity: { clientId: endpoint.identity.clientId, endpoint: endpoint.endpoint, header: endpoint.header } },
    });
    try {
      const failure = await connection.graph.get('/v1.0/deviceManagement/managedDevices').catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GraphError);
      expect((failure as GraphError).kind).toBe('token');
      expect((failure as GraphError).message).toMatch(/AADSTS70021/);
    } finally {
      await connection.close();
    }
  });

  it('is refused when the app registration has no federated credential at all', async () => {
    const plain = harness.sim.addApplication({ roles: ['DeviceManagementManagedDevices.Read.All'] });
    const endpoint = identity();
    const connection = connectToDemoTenant(harness.sim, {
      clientId: plain.clientId,
      credential: { kind: 'managed-identity', identity: { clientId: endpoint.identity.clientId, endpoint: endpoint.endpoint, header: endpoint.header } },
    });
    try {
      const failure = await connection.graph.get('/v1.0/deviceManagement/managedDevices').catch((error: unknown) => error);
      expect((failure as GraphError).kind).toBe('token');
    } finally {
      await connection.close();
    }
  });

  it('names the identity, never the header value, when the identity endpoint refuses', async () => {
    const endpoint = identity();
    const transport = createHttpTransport();
    try {
      const failure = await requestIdentityToken(
        { clientId: endpoint.identity.clientId, endpoint: endpoint.endpoint, header: 'wrong-header-value' },
        'api://AzureADTokenExchange',
        transport,
      ).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(GraphError);
      expect((failure as GraphError).status).toBe(401);
      expect((failure as GraphError).message).toContain(endpoint.identity.clientId);
      expect((failure as GraphError).message).not.toContain('wrong-header-value');
    } finally {
      await transport.close();
    }
  });
});
