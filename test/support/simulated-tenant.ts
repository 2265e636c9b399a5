import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { GraphClient, GraphClientOptions } from '../../src/graph/graph-client.js';
import type { ClientCredential } from '../../src/graph/token-source.js';
import { connectToDemoTenant, tenantKeyOf } from '../../src/app/graph-connection.js';
import type { GraphConnection } from '../../src/app/graph-connection.js';
import { simulatorEnvironment, startSimulator } from '../../src/sim/simulator.js';
import type { Simulator, SimulatorOptions } from '../../src/sim/simulator.js';
import { DEMO_GRANTED_ROLES, buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { emptyCollections } from '../../src/sim/tenants/sim-tenant.js';
import type { SimTenant } from '../../src/sim/tenants/sim-tenant.js';
import { recordCredential } from './suite-log.js';

/** Every application permission the reports use, as Entra spells the role values. */
export const ALL_REPORT_ROLES: readonly string[] = DEMO_GRANTED_ROLES;

/** An empty tenant to fill in a test. */
export function blankTenant(overrides: Partial<SimTenant> = {}): SimTenant {
  return {
    tenantId: '6b1a4d52-9b8e-4c1f-a7e3-2f0d5c8e9a11',
    displayName: 'Fabrikam (test)',
    domain: 'fabrikam-test.onmicrosoft.com',
    collections: emptyCollections(),
    singletons: {},
    groups: new Map(),
    grantedRoles: [...ALL_REPORT_ROLES],
    declaredFindings: [],
    ...overrides,
  };
}

/** A simulator as strict as Graph by default: its page sizes and Intune's throttling limits, unless a test says otherwise. */
export async function startTestSimulator(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  return startSimulator({ tenant: blankTenant(), ...options });
}

/**
 * A Graph client wired exactly as the app wires one: msal-node against the simulator's authority,
 * the simulator's CA trusted in addition to the system roots. Retries sleep for real unless a test
 * passes its own `sleep`.
 */
export type GraphClientForOptions = Partial<GraphClientOptions> & { clientId?: string; credential?: ClientCredential; tokenClock?: () => number };

export function graphClientFor(sim: Simulator, options: GraphClientForOptions = {}): { graph: GraphClient; close: () => Promise<void> } {
  const { clientId, credential, tokenClock, ...clientOptions } = options;
  const connection = connectToDemoTenant(sim, { ...(clientId ? { clientId } : {}), ...(credential ? { credential } : {}), ...(tokenClock ? { tokenClock } : {}), clientOptions });
  return { graph: connection.graph, close: connection.close };
}

/**
 * The connection the app's composition root makes to a simulator, reading Graph through `graph`
 * (a client of the test's choosing, e.g. one holding other roles).
 */
/** The key a simulated tenant's state is kept under, as `npm start` opens the store for it: for a store a test shares with the app's server. */
export function simulatorTenantKey(sim: Pick<Simulator, 'tenantId'>): string {
  return tenantKeyOf({ demo: true, tenantId: sim.tenantId });
}

export function simulatorConnection(sim: Simulator, graph: GraphClient): GraphConnection {
  return { ...connectToDemoTenant(sim), graph };
}

export function managedDevice(index: number): { id: string } & Record<string, unknown> {
  const suffix = index.toString(16).padStart(12, '0');
  return {
    id: `00000000-0000-4000-8000-${suffix}`,
    deviceName: `DESKTOP-${index.toString().padStart(5, '0')}`,
    operatingSystem: 'Windows',
    azureADDeviceId: `11111111-0000-4000-8000-${suffix}`,
  };
}

export interface SimulatorHarness {
  /** The running simulator, from the test file's own `beforeAll` on. */
  readonly sim: Simulator;
  /** A Graph client wired as the app wires one, closed when the file's tests end. */
  client(options?: GraphClientForOptions): GraphClient;
}

/**
 * One simulator per test file: started before the file's tests, faults and request log reset after
 * each test, and closed at the end, after checking that nothing sent it a write.
 */
export function useTestSimulator(options: Partial<SimulatorOptions> = {}): SimulatorHarness {
  let running: Simulator | undefined;
  const closers: Array<() => Promise<void>> = [];
  beforeAll(async () => {
    running = await startTestSimulator(options);
    recordCredential(running.clientSecret);
  });
  afterEach(() => {
    running?.faults.clear();
    running?.graph.clearLog();
  });
  afterAll(async () => {
    await Promise.all(closers.map((close) => close()));
    const violations = running?.violationCount();
    await running?.close();
    expect(violations).toBe(0);
  });
  return {
    get sim() {
      if (!running) throw new Error('the test simulator starts in beforeAll');
      return running;
    },
    client(clientOptions = {}) {
      const { graph, close } = graphClientFor(this.sim, clientOptions);
      closers.push(close);
      return graph;
    },
  };
}

/**
 * The demo tenant, started once for a test file, and the variables that make a `dmhealth` process
 * read it as a configured tenant: the same records, so the same output, as the demo the command line
 * starts itself, without a simulator started in each process. A test of the demo itself (its banner)
 * leaves them out, as `npx dmhealth` runs with no tenant configured.
 */
export function useDemoTenantForProcesses(): () => Record<string, string> {
  const demo = useTestSimulator({ tenant: buildDemoTenant() });
  return () => simulatorEnvironment(demo.sim);
}

/**
 * An app-only token straight from the simulated authority, for tests that talk to Graph without
 * the client (to look at the wire format, or to send what the client would refuse).
 */
export async function requestAppToken(sim: Simulator, options: { clientId?: string; secret?: string; tenant?: string } = {}): Promise<string> {
  const dispatcher = new Agent({ connect: { ca: sim.caPem } });
  try {
    const response = await request(`${sim.authorityHost}/${options.tenant ?? sim.tenantId}/oauth2/v2.0/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: options.clientId ?? sim.clientId,
        client_secret: options.secret ?? sim.clientSecret,
        scope: 'https://graph.microsoft.com/.default',
      }).toString(),
      dispatcher,
    });
    const body = (await response.body.json()) as { access_token?: string; error_description?: string };
    if (!body.access_token) throw new Error(`no token: ${body.error_description ?? response.statusCode}`);
    return body.access_token;
  } finally {
    await dispatcher.close();
  }
}

/** A Graph answer as it came over the wire, for tests that read the simulator's own format. */
export type WireBody = Record<string, unknown> & {
  value?: Array<Record<string, unknown>>;
  '@odata.nextLink'?: string;
  '@odata.context'?: string;
  error?: { code: string; message: string };
};

export interface RawGraph {
  readonly sim: Simulator;
  /** The simulated app's token, taken once before the file's tests. */
  readonly token: string;
  /** A GET of a path under the simulator's Graph (`/beta/…`) or of a whole URL (a nextLink), as it answers. */
  get(pathOrUrl: string, options?: { headers?: Record<string, string>; bearer?: string }): Promise<{ status: number; body: WireBody }>;
}

/**
 * A simulator over `tenant` for the file's tests, read without the client: plain GETs with the
 * app's token, to look at what the simulator itself serves.
 */
export function useRawGraph(tenant: SimTenant): RawGraph {
  const harness = useTestSimulator({ tenant });
  let token: string | undefined;
  let dispatcher: Agent | undefined;
  beforeAll(async () => {
    dispatcher = new Agent({ connect: { ca: harness.sim.caPem } });
    token = await requestAppToken(harness.sim);
  });
  afterAll(() => dispatcher?.close());
  return {
    get sim() {
      return harness.sim;
    },
    get token() {
      if (token === undefined) throw new Error('the token is taken in beforeAll');
      return token;
    },
    async get(pathOrUrl, options = {}) {
      const url = pathOrUrl.startsWith('https://') ? pathOrUrl : `${harness.sim.graphUrl}${pathOrUrl}`;
      const response = await request(url, { headers: { authorization: `Bearer ${options.bearer ?? this.token}`, 'user-agent': 'sim-test', ...options.headers }, dispatcher });
      return { status: response.statusCode, body: (await response.body.json()) as WireBody };
    },
  };
}
