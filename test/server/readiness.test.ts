// /readyz's parts (docs/contract.md, "Health"): a state store opened in the background, named
// until it is open and tried again until it opens, with the requests that need it answered 503
// meanwhile; and the Graph token's roles against every permission the reports declare.
import type { AddressInfo } from 'node:net';
import restify from 'restify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/app/config.js';
import { connectToDemoTenant } from '../../src/app/graph-connection.js';
import type { GraphConnection } from '../../src/app/graph-connection.js';
import { describeMissingPermissions, grantedRoles, missingPermissions, requiredGraphPermissions } from '../../src/app/graph-consent.js';
import { openStateStoreInBackground, StateStoreNotOpenError } from '../../src/app/opening-state-store.js';
import type { StoreOpening } from '../../src/app/opening-state-store.js';
import { REPORTS } from '../../src/core/reports/registry.js';
import { createReadiness, registerHealthRoutes } from '../../src/server/health-routes.js';
import { needsStateStore, registerStartupGate, STORE_RETRY_AFTER_SECONDS } from '../../src/server/startup-gate.js';
import type { Simulator } from '../../src/sim/simulator.js';
import type { StateStore } from '../../src/store/state-store.js';
import { ALL_REPORT_ROLES, blankTenant, startTestSimulator } from '../support/simulated-tenant.js';

const openStore = { kind: 'file', tenant: 'demo-t', readDocument: async () => null, close: async () => undefined } as unknown as StateStore;

describe('the state store, opened in the background', () => {
  it('throws until it is open, names why, and opens by itself once an attempt succeeds', async () => {
    let attempts = 0;
    const lines: string[] = [];
    let opened: StateStore | undefined;
    const store = openStateStoreInBackground({
      kind: 'azure-blob',
      tenant: 'demo-t',
      open: async () => {
        attempts += 1;
        if (attempts < 3)
          throw Object.assign(new Error('This request is not authorized to perform this operation using this permission.'), {
            statusCode: 403,
            code: 'AuthorizationPermissionMismatch',
          });
        return openStore;
      },
      log: (line) => lines.push(line),
      onOpen: (store) => (opened = store),
      onConfigError: () => expect.fail('not a setting'),
      retryDelaysMs: [5],
    });
    expect(store.kind).toBe('azure-blob');
    await expect(store.readDocument('triage')).rejects.toBeInstanceOf(StateStoreNotOpenError);
    expect(await store.whenOpen(2_000)).toBe(true);
    expect(attempts).toBe(3);
    expect(opened).toBe(openStore);
    expect(store.state()).toEqual({ open: true });
    expect(await store.readDocument('triage')).toBeNull();
    expect(lines[0]).toMatch(/^state store: could not be opened \(attempt 1, next in 0.005 s\)/);
    expect(lines.at(-1)).toBe('state store: open after 3 attempts.');
  });

  it('says the identity’s role may not be applied yet while Azure Storage refuses it, by the error’s code only', async () => {
    const store = openStateStoreInBackground({
      kind: 'azure-blob',
      tenant: 'demo-t',
      open: () => Promise.reject(Object.assign(new Error('refused for https://contoso.blob.core.windows.net'), { statusCode: 403, code: 'AuthorizationPermissionMismatch' })),
      log: () => undefined,
      onConfigError: () => undefined,
      retryDelaysMs: [60_000],
    });
    await expect
      .poll(() => store.state())
      .toEqual({
        open: false,
        reason:
          "the state store (azure-blob) is not reachable yet: AuthorizationPermissionMismatch 403; the identity's role on the storage may not be applied yet (minutes after the first provision)",
      });
    expect(await store.whenOpen(10)).toBe(false);
    await store.close();
  });

  it('stops trying at a setting it refuses: no attempt can succeed', async () => {
    let attempts = 0;
    const refused: ConfigError[] = [];
    const store = openStateStoreInBackground({
      kind: 'azure-blob',
      tenant: 'demo-t',
      open: async () => {
        attempts += 1;
        throw new ConfigError('STATE_STORE must be …');
      },
      log: () => undefined,
      onConfigError: (error) => refused.push(error),
      retryDelaysMs: [1],
    });
    await expect.poll(() => refused.length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(1);
    expect(store.state()).toEqual({ open: false, reason: 'the state store cannot be opened as configured: STATE_STORE must be …' });
  });
});

describe('the startup gate', () => {
  let opening: StoreOpening & { open: boolean };
  let base: string;
  const logged: string[] = [];
  const server = restify.createServer();

  beforeAll(async () => {
    opening = {
      open: false,
      state() {
        return this.open ? { open: true } : { open: false, reason: 'the state store (azure-blob) is being opened' };
      },
      whenOpen: async () => opening.open,
    };
    registerStartupGate(server, opening);
    registerHealthRoutes(server, createReadiness({ tokens: undefined, store: openStore, opening }), (line) => logged.push(line));
    server.get('/api/reports/:id', (_req, res, next) => {
      res.send(200, { served: true });
      next();
    });
    server.get('/api/reports', (_req, res, next) => {
      res.send(200, []);
      next();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('answers what needs the store 503 with Retry-After until it is open, and lets the rest through', async () => {
    const waiting = await fetch(`${base}/api/reports/escrow-gaps?refresh=true`);
    expect(waiting.status).toBe(503);
    expect(waiting.headers.get('retry-after')).toBe(String(STORE_RETRY_AFTER_SECONDS));
    expect(((await waiting.json()) as { error: { message: string } }).error.message).toMatch(/state store is not open yet/);
    expect((await fetch(`${base}/api/reports`)).status).toBe(200);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    // Asked without a sign-in: ready or not, and nothing of which part is down; the log says which, once for the run of the checks.
    expect(await ready.json()).toEqual({ status: 'not ready' });
    expect(logged).toEqual(['not ready: stateStore: the state store (azure-blob) is being opened']);
    expect(await (await fetch(`${base}/readyz`)).json()).toEqual({ status: 'not ready' });
    expect(logged).toHaveLength(1);

    opening.open = true;
    expect(await (await fetch(`${base}/api/reports/escrow-gaps`)).json()).toEqual({ served: true });
  });

  it('holds the reports, the triage, the approved baseline, the bot and notify; not the catalogue, the tenant, the demo sign-in, what applies or the tab', () => {
    for (const path of ['/api/reports/escrow-gaps', '/api/reports/escrow-gaps/triage', '/api/reports/1/summary', '/api/baseline', '/api/messages', '/api/notify'])
      expect(needsStateStore(path), path).toBe(true);
    for (const path of ['/api/reports', '/api/tenant', '/api/demo/token', '/api/applies', '/tab/', '/healthz', '/readyz', '/privacy'])
      expect(needsStateStore(path), path).toBe(false);
  });
});

describe('consent: the Graph token holds every permission the reports declare', () => {
  const denied = 'BitlockerKey.ReadBasic.All';
  const deniedWhole = 'DeviceManagementRBAC.Read.All';
  let sim: Simulator;
  let connection: GraphConnection;

  beforeAll(async () => {
    sim = await startTestSimulator({ tenant: blankTenant({ grantedRoles: ALL_REPORT_ROLES.filter((role) => role !== denied && role !== deniedWhole) }) });
    connection = connectToDemoTenant(sim);
  });
  afterAll(async () => {
    await connection?.close();
    await sim?.close();
  });

  it('lists each permission the reports declare once, with what each report loses without it', () => {
    const required = requiredGraphPermissions(REPORTS);
    expect(new Set(required.map(({ permission }) => permission))).toEqual(new Set(REPORTS.definitions.flatMap((report) => report.permissions)));
    expect(required.find(({ permission }) => permission === denied)!.costs).toEqual([
      {
        report: 'escrow-gaps',
        title: expect.any(String),
        scope: 'source',
        column: 'recoveryKey',
        source: 'BitLocker recovery keys',
        checks: [expect.any(String), expect.any(String)],
      },
    ]);
    expect(required.find(({ permission }) => permission === deniedWhole)!.costs.map((cost) => [cost.report, cost.scope])).toEqual([['admin-approval', 'report']]);
    // Report 7's conflict summary is an optional source read with a permission its required reads need too: without it the whole report fails.
    const configuration = required.find(({ permission }) => permission === 'DeviceManagementConfiguration.Read.All')!.costs;
    expect(configuration.filter((cost) => cost.report === 'setting-conflicts').map((cost) => cost.scope)).toEqual(['report']);
  });

  it('is not ready while consent is missing, naming the permissions and what they cost', async () => {
    const readiness = createReadiness({ tokens: connection.tokens, store: openStore, requiredPermissions: requiredGraphPermissions(REPORTS) });
    const { graphToken } = await readiness.check();
    expect(graphToken?.ok).toBe(false);
    const reason = (graphToken as { reason: string }).reason;
    expect(reason).toMatch(/^admin consent is missing for /);
    expect(reason).toContain('DeviceManagementRBAC.Read.All (report admin-approval cannot load)');
    expect(reason).toContain('BitlockerKey.ReadBasic.All (report escrow-gaps shows its column recoveryKey (BitLocker recovery keys) as n/a and does not check ');
    for (const permission of ALL_REPORT_ROLES.filter((role) => role !== denied && role !== deniedWhole)) expect(reason).not.toContain(`${permission} (`);
    expect(reason).not.toContain(sim.tenantId);
  });

  it('reads the roles of an app-only token, and takes a token it cannot read for one that proves nothing missing', async () => {
    const token = await connection.tokens.getToken();
    expect(grantedRoles(token)).toEqual(new Set(ALL_REPORT_ROLES.filter((role) => role !== denied && role !== deniedWhole)));
    const noRoles = `e30.${Buffer.from(JSON.stringify({ idtyp: 'app' })).toString('base64url')}.sig`;
    expect(missingPermissions(noRoles, requiredGraphPermissions(REPORTS))).toHaveLength(requiredGraphPermissions(REPORTS).length);
    expect(grantedRoles('opaque')).toBeNull();
    expect(missingPermissions('opaque', requiredGraphPermissions(REPORTS))).toEqual([]);
    expect(describeMissingPermissions(requiredGraphPermissions(REPORTS).filter(({ permission }) => permission === 'Group.Read.All'))).toBe(
      'admin consent is missing for Group.Read.All (report assignment-hygiene cannot load; report admin-approval cannot load; report setting-conflicts cannot load; report baseline-drift cannot load)',
    );
  });
});
