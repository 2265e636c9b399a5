import { createHttpTransport } from '../../src/core/graph/http-transport.js';
import { GraphClient } from '../../src/core/graph/graph-client.js';
import type { GraphClientOptions } from '../../src/core/graph/graph-client.js';
import { createMsalTokenSource } from '../../src/core/graph/token-source.js';
import type { ClientCredential } from '../../src/core/graph/token-source.js';
import { startSimulator } from '../../src/sim/simulator.js';
import type { Simulator, SimulatorOptions } from '../../src/sim/simulator.js';
import { DEMO_GRANTED_ROLES } from '../../src/sim/tenants/demo-tenant.js';
import { emptyCollections } from '../../src/sim/tenants/sim-tenant.js';
import type { SimTenant } from '../../src/sim/tenants/sim-tenant.js';

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

export async function startTestSimulator(options: Partial<SimulatorOptions> = {}): Promise<Simulator> {
  return startSimulator({ tenant: blankTenant(), throttling: false, ...options });
}

/**
 * A Graph client wired exactly as the app wires one: msal-node against the simulator's authority,
 * the simulator's CA trusted in addition to the system roots. Retries sleep for real unless a test
 * passes its own `sleep`.
 */
export function graphClientFor(
  sim: Simulator,
  options: Partial<GraphClientOptions> & { clientId?: string; credential?: ClientCredential; tokenClock?: () => number } = {},
): { graph: GraphClient; close: () => Promise<void> } {
  const transport = createHttpTransport({ extraCaPem: sim.caPem });
  const tokens = createMsalTokenSource({
    tenantId: sim.tenantId,
    clientId: options.clientId ?? sim.clientId,
    credential: options.credential ?? { kind: 'secret', secret: sim.clientSecret },
    authorityHost: sim.authorityHost,
    graphBaseUrl: sim.graphUrl,
    transport,
    ...(options.tokenClock ? { now: options.tokenClock } : {}),
  });
  const graph = new GraphClient({ baseUrl: sim.graphUrl, tokens, transport, ...options });
  return { graph, close: () => transport.close() };
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
