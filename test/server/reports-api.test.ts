import { SignJWT, generateKeyPair } from 'jose';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { EncodedReports } from '../../src/server/report-encoding.js';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { STRICT_TRANSPORT_SECURITY } from '../../src/server/app-server.js';
import { loadReport } from '../../src/core/reports/registry.js';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { isPartialReport } from '../../src/core/reports/report-preview.js';
import type { ReportPreview } from '../../src/core/reports/report-preview.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useApiServer } from '../support/api-server.js';
import { getWithHost } from '../support/host-header.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
let loads = 0;
const encodings = new EncodedReports();

const api = useApiServer(harness, {
  name: 'reports API',
  load: (graph) => (id, onProgress) => {
    loads += 1;
    return loadReport(id, graph, { onProgress });
  },
  access: () => ({ applicationIdUri: `api://localhost:53000/${harness.sim.clientId}` }),
  server: {
    encodings,
    // The refresh limit counts minutes on a clock the tests hold: a slow run never leaves the minute.
    limitClock: () => 0,
    demoToken: async () => ({ token: await harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE] }), expiresIn: 3600 }),
  },
});
const get = (path: string, token?: string) => api.get(path, token);

const userToken = (options: Partial<Parameters<typeof harness.sim.entra.issueUserToken>[0]> = {}) =>
  harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE], ...options });

describe('the tab API: who may call it', () => {
  it('asks for a token when there is none', async () => {
    const response = await get('/api/reports');
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
  });

  it('refuses an expired token', async () => {
    const response = await get('/api/reports', await userToken({ issuedSecondsAgo: 7200, lifetimeSeconds: 3600 }));
    expect(response.status).toBe(401);
    expect(response.text).toContain('expired');
  });

  it('refuses a token for another app', async () => {
    expect((await get('/api/reports', await userToken({ audience: '2f4b3c1e-0000-4000-8000-000000000099' }))).status).toBe(401);
  });

  it('refuses a token from another tenant', async () => {
    expect((await get('/api/reports', await userToken({ tenantId: '0b6f1d4e-0000-4000-8000-000000000042' }))).status).toBe(401);
  });

  it("refuses a token whose signature is not the tenant's", async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ aud: harness.sim.clientId, tid: harness.sim.tenantId, roles: [IT_STAFF_ROLE] })
      .setProtectedHeader({ alg: 'RS256', kid: 'forged' })
      .setIssuer(`${harness.sim.authorityHost}/${harness.sim.tenantId}/v2.0`)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await get('/api/reports', forged)).status).toBe(401);
  });

  it('refuses a valid user without the IT staff role with 403', async () => {
    const response = await get('/api/reports', await userToken({ roles: [] }));
    expect(response.status).toBe(403);
    expect(response.text).toContain(IT_STAFF_ROLE);
  });

  it('lets IT staff in, with the audience as the client id or the configured application ID URI', async () => {
    expect((await get('/api/reports', await userToken())).status).toBe(200);
    expect((await get('/api/reports', await userToken({ audience: `api://localhost:53000/${harness.sim.clientId}` }))).status).toBe(200);
  });

  it('refuses an application ID URI other than the configured one, even ending in the client id', async () => {
    for (const audience of [`api://evil.example/${harness.sim.clientId}`, `api://localhost:53000/x/${harness.sim.clientId}`, `https://localhost:53000/${harness.sim.clientId}`]) {
      const response = await get('/api/reports', await userToken({ audience }));
      expect(response.status, audience).toBe(401);
      expect(response.text).toContain('another app');
    }
  });

  it.each(['exp', 'iat', 'nbf', 'tid', 'oid', 'sub', 'ver'])('refuses a token without the %s claim Entra always sets', async (claim) => {
    expect((await get('/api/reports', await userToken({ claims: { [claim]: undefined } }))).status).toBe(401);
  });

  it('matches the role exactly, in a roles array only', async () => {
    expect((await get('/api/reports', await userToken({ roles: undefined, claims: { roles: `Not${IT_STAFF_ROLE}.Admin` } }))).status).toBe(403);
    expect((await get('/api/reports', await userToken({ roles: undefined, claims: { roles: IT_STAFF_ROLE } }))).status).toBe(403);
    expect((await get('/api/reports', await userToken({ roles: [`${IT_STAFF_ROLE}.Admin`, IT_STAFF_ROLE.toLowerCase()] }))).status).toBe(403);
  });

  it("refuses what is not a user's access token for this app: an ID token, an app-only token", async () => {
    // An ID token: issued to the client itself, with a nonce and no scope.
    const idToken = await userToken({ claims: { scp: undefined, nonce: 'n-0S6_WzA2Mj' } });
    // An app-only token (client credentials): application roles, no scope, idtyp "app".
    const appToken = await userToken({ claims: { scp: undefined, idtyp: 'app', name: undefined, preferred_username: undefined } });
    const otherScope = await userToken({ claims: { scp: 'User.Read' } });
    for (const token of [idToken, appToken, otherScope]) {
      const response = await get('/api/reports', token);
      expect(response.status).toBe(401);
      expect(response.text).toContain("not a user's access token");
    }
  });
});

describe('transport security', () => {
  it('tells browsers to use HTTPS only, on every answer: a report, a refusal, an unknown path, the health checks', async () => {
    const token = await userToken();
    for (const [path, bearer, status] of [
      ['/api/reports', token, 200],
      ['/api/reports', undefined, 401],
      ['/api/no-such-route', token, 404],
      ['/healthz', undefined, 200],
      ['/readyz', undefined, 200],
    ] as const) {
      const response = await get(path, bearer);
      expect(response.status, path).toBe(status);
      expect(response.headers['strict-transport-security'], `${path} ${status}`).toBe(STRICT_TRANSPORT_SECURITY);
    }
    expect(STRICT_TRANSPORT_SECURITY).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('the tab API: reports', () => {
  it('lists the eight reports, the drift from the approved baseline last', async () => {
    const response = await get('/api/reports', await userToken());
    const ids = (response.json() as Array<{ id: string }>).map((report) => report.id);
    expect(ids).toHaveLength(8);
    expect(ids.at(-1)).toBe('baseline-drift');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('serves a report as the JSON contract, and as CSV', async () => {
    const token = await userToken();
    const report = (await get('/api/reports/escrow-gaps', token)).json() as ReportResult;
    expect(report).toMatchObject({ report: 'escrow-gaps', state: 'loaded', error: null });
    expect(report.findings.length).toBeGreaterThan(0);
    const csv = await get('/api/reports/escrow-gaps.csv', token);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.text.split('\r\n')[0]).toBe('Device,User,Last check-in,Recovery key,LAPS password,Note,Findings,Severity,Detail,Link');
    expect((await get('/api/reports/no-such-report', token)).status).toBe(404);
  });

  it('turns a report into bytes once for every viewer: one serialization, one ETag, compressed as each client accepts, 304 for a client that has it', async () => {
    const token = await userToken();
    const fetchReport = (headers: Record<string, string>) =>
      request(`${api.base}/api/reports/security-posture`, { headers: { authorization: `Bearer ${token}`, ...headers } }).then(async (response) => ({
        status: response.statusCode,
        headers: response.headers,
        body: Buffer.from(await response.body.arrayBuffer()),
      }));
    const plain = await fetchReport({});
    const before = encodings.serializations;
    const [brotli, gzipped, again] = await Promise.all([
      fetchReport({ 'accept-encoding': 'gzip, br' }),
      fetchReport({ 'accept-encoding': 'gzip' }),
      fetchReport({ 'accept-encoding': 'br;q=0, gzip' }),
    ]);
    expect(encodings.serializations - before).toBe(0); // the first viewer's bytes serve every later one
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect([brotli.headers['content-encoding'], gzipped.headers['content-encoding'], again.headers['content-encoding']]).toEqual(['br', 'gzip', 'gzip']);
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gzipped.body).equals(plain.body)).toBe(true);
    expect(new Set([plain, brotli, gzipped, again].map((response) => response.headers.etag)).size).toBe(1);
    expect((JSON.parse(plain.body.toString('utf8')) as ReportResult).report).toBe('security-posture');

    const unchanged = await fetchReport({ 'if-none-match': String(plain.headers.etag) });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body.length).toBe(0);
    // A refresh makes a new result, and so new bytes.
    const serializationsBeforeRefresh = encodings.serializations;
    await get('/api/reports/security-posture?refresh=true', token);
    expect(encodings.serializations).toBe(serializationsBeforeRefresh + 1);
  });

  it('previews a report as the tab opens it: a small one whole, with its size, its bytes made once for every viewer', async () => {
    const token = await userToken();
    const whole = (await get('/api/reports/connector-health', token)).json() as ReportResult;
    const first = await get('/api/reports/connector-health/preview', token);
    const before = encodings.serializations;
    const second = await get('/api/reports/connector-health/preview', token);
    expect(encodings.serializations - before).toBe(0);
    expect(second.headers.etag).toBe(first.headers.etag);
    expect(second.headers.etag).not.toBe((await get('/api/reports/connector-health', token)).headers.etag);
    const preview = first.json() as ReportPreview;
    expect(preview).toEqual({ ...whole, whole: { rows: whole.rows.length, findings: whole.findings.length } });
    expect(isPartialReport(preview)).toBe(false);
    expect((await get('/api/reports/no-such-report/preview', token)).status).toBe(404);
    expect((await get('/api/reports/connector-health/preview')).status).toBe(401);
  });

  it('loads a report once for viewers who open it together, and again on refresh', async () => {
    const token = await userToken();
    const before = loads;
    const responses = await Promise.all([get('/api/reports/admin-approval', token), get('/api/reports/admin-approval', token), get('/api/reports/admin-approval', token)]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(loads - before).toBe(1);
    expect(harness.sim.graph.requests.filter((entry) => entry.path === '/beta/deviceManagement/operationApprovalPolicies')).toHaveLength(1);
    await get('/api/reports/admin-approval', token);
    expect(loads - before).toBe(1);
    await get('/api/reports/admin-approval?refresh=true', token);
    expect(loads - before).toBe(2);
  });

  it('lets one user start a few refreshes a minute; past that, answers from the cache and says so, while others can still refresh', async () => {
    const oid = '7d1c9e3a-0000-4000-8000-00000000f5f5';
    const token = await userToken({ claims: { oid } });
    const refresh = async (bearer: string) => {
      const response = await request(`${api.base}/api/reports/admin-approval?refresh=true`, { headers: { authorization: `Bearer ${bearer}` } });
      await response.body.text();
      return response.headers['x-refresh-limited'];
    };
    const before = loads;
    for (let attempt = 0; attempt < 6; attempt += 1) expect(await refresh(token)).toBeUndefined();
    expect(loads - before).toBe(6);
    const limited = await refresh(token);
    expect(Number(limited)).toBeGreaterThan(0);
    expect(loads - before).toBe(6); // answered from the cache, no seventh load
    expect(await refresh(await userToken())).toBeUndefined(); // someone else's refresh still loads
    expect(loads - before).toBe(7);
  });

  it('answers a report that cannot load with its error, and as CSV with 502; the failure is not kept', async () => {
    const token = await userToken();
    harness.sim.faults.add({ path: '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance', status: 403, times: 2 });
    const report = (await get('/api/reports/startup-reliability', token)).json() as ReportResult;
    expect(report).toMatchObject({ state: 'load-error', error: { status: 403 }, rows: [] });
    const csv = await get('/api/reports/startup-reliability.csv', token);
    expect(csv.status).toBe(502);
    expect(csv.text).toContain('403');
    expect(((await get('/api/reports/startup-reliability', token)).json() as ReportResult).state).toBe('loaded');
  });

  it('signs a browser on this machine into the demo tenant', async () => {
    const { token } = (await get('/api/demo/token')).json() as { token: string };
    expect((await get('/api/reports', token)).status).toBe(200);
    for (const host of ['localhost', `localhost:${new URL(api.base).port}`, '127.0.0.1', '[::1]:3978']) {
      expect((await getWithHost(api.base, host, '/api/demo/token')).status, host).toBe(200);
    }
  });

  it("refuses the demo sign-in to a page under another site's name that resolves to this machine (DNS rebinding)", async () => {
    for (const host of ['attacker.example', 'attacker.example:3978', '127.0.0.1.attacker.example', 'localhost.attacker.example', '']) {
      const response = await getWithHost(api.base, host, '/api/demo/token');
      expect(response.status, host).toBe(403);
      expect(response.text).not.toContain('token"');
    }
  });
});
