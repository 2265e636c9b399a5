import type { TenantConnection } from '../app/config.js';
import { GraphClient } from '../graph/graph-client.js';
import type { GraphClientOptions, GraphExchange } from '../graph/graph-client.js';
import { createHttpTransport } from '../graph/http-transport.js';
import type { HttpTransport } from '../graph/http-transport.js';
import { createMsalTokenSource } from '../graph/token-source.js';
import type { ClientCredential } from '../graph/token-source.js';
import { startSimulator } from '../sim/simulator.js';
import type { Simulator } from '../sim/simulator.js';
import { buildDemoTenant } from '../sim/tenants/demo-tenant.js';
import type { SimTenant } from '../sim/tenants/sim-tenant.js';

export interface GraphConnection {
  graph: GraphClient;
  /** The HTTP transport behind it, with its trust: for other calls to the same authority (signing keys). */
  transport: HttpTransport;
  /** "Contoso (demo)" in demo mode; the tenant id otherwise. */
  tenantLabel: string;
  demo: boolean;
  /** The embedded simulator behind a demo connection. */
  simulator: Simulator | undefined;
  /** The Entra tenant and app the tab's SSO tokens come from (the simulator's in demo mode). */
  identity: { authorityHost: string; tenantId: string; clientId: string };
  close(): Promise<void>;
}

/**
 * The composition root shared by the server and the CLI: the one place that turns configuration
 * into a Graph client and the identity the tab's tokens are checked against, for the configured
 * tenant or, in demo mode, the embedded simulator, trusted through its own CA (never by switching
 * verification off).
 */
export interface SimulatorConnectionOptions {
  /** Another app registration of the simulator's (with other roles); the default one otherwise. */
  clientId?: string;
  credential?: ClientCredential;
  clientOptions?: Partial<GraphClientOptions>;
  /** The token source's clock, for tests of expiry. */
  tokenClock?: () => number;
}

/**
 * A connection to a running simulated tenant, wired as to a real one: msal-node against its
 * authority, its CA trusted besides the system roots. Closing it leaves the simulator running.
 */
export function connectToSimulator(simulator: Simulator, options: SimulatorConnectionOptions = {}): GraphConnection {
  const transport = createHttpTransport({ extraCaPem: simulator.caPem });
  const tokens = createMsalTokenSource({
    tenantId: simulator.tenantId,
    clientId: options.clientId ?? simulator.clientId,
    credential: options.credential ?? { kind: 'secret', secret: simulator.clientSecret },
    authorityHost: simulator.authorityHost,
    graphBaseUrl: simulator.graphUrl,
    transport,
    ...(options.tokenClock ? { now: options.tokenClock } : {}),
  });
  return {
    graph: new GraphClient({ baseUrl: simulator.graphUrl, tokens, transport, ...options.clientOptions }),
    transport,
    tenantLabel: simulator.tenant.displayName,
    demo: true,
    simulator,
    identity: { authorityHost: simulator.authorityHost, tenantId: simulator.tenantId, clientId: simulator.clientId },
    close: () => transport.close(),
  };
}

export async function openGraphConnection(
  connection: TenantConnection,
  options: {
    onExchange?: (exchange: GraphExchange) => void;
    betaCoverage?: boolean;
    /** The simulated tenant demo mode serves: the demo tenant unless another is given (the large one). */
    demoTenant?: () => SimTenant;
  } = {},
): Promise<GraphConnection> {
  const clientOptions = { betaCoverage: options.betaCoverage === true, ...(options.onExchange ? { onExchange: options.onExchange } : {}) };
  if (connection.mode === 'demo') {
    const simulator = await startSimulator({ tenant: (options.demoTenant ?? buildDemoTenant)() });
    const connected = connectToSimulator(simulator, { clientOptions });
    return {
      ...connected,
      async close() {
        await connected.close();
        await simulator.close();
      },
    };
  }
  const transport = createHttpTransport();
  const tokens = createMsalTokenSource({ ...connection, transport });
  return {
    graph: new GraphClient({ baseUrl: connection.graphBaseUrl, tokens, transport, ...clientOptions }),
    transport,
    tenantLabel: connection.tenantId,
    demo: false,
    simulator: undefined,
    identity: { authorityHost: connection.authorityHost, tenantId: connection.tenantId, clientId: connection.clientId },
    close: () => transport.close(),
  };
}
