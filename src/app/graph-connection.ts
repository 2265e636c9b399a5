import type { TenantConnection } from './config.js';
import { GraphClient } from '../graph/graph-client.js';
import type { GraphCall, GraphClientOptions, GraphExchange } from '../graph/graph-client.js';
import { createHttpTransport } from '../graph/http-transport.js';
import type { HttpTransport } from '../graph/http-transport.js';
import { createMsalTokenSource } from '../graph/token-source.js';
import type { AccessTokenSource, ClientCredential } from '../graph/token-source.js';
import type { TenantKey } from '../store/state-store.js';
import type { UpstreamRead } from '../core/graph/upstream-read.js';
import { PRODUCT_READS } from '../core/upstream-reads.js';
import type { DemoAdministrator } from '../core/viewer-scope/demo.js';

/**
 * A simulated tenant read as a tenant, as demo mode needs it: the running simulator (`src/sim`)
 * has this shape, and the entry points that start one (`npm start`, `dmhealth`) hand it over, so that nothing here
 * imports the simulator.
 */
export interface DemoTenant {
  readonly graphUrl: string;
  readonly authorityHost: string;
  readonly tenantId: string;
  /** Its app registration, granted the demo's roles, and that registration's secret. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The CA that signed its TLS certificate, trusted besides the system roots. */
  readonly caPem: string;
  readonly tenant: {
    readonly displayName: string;
    /** Its central and regional Intune administrators (src/core/viewer-scope/demo.ts), whom the demo sign-in can sign in as. */
    readonly demoAdministrators?: Readonly<Record<DemoAdministrator, string>>;
  };
  /** Signs a tab user's SSO token: the demo sign-in, outside Teams. */
  readonly entra: { issueUserToken(options: { audience: string; roles?: string[]; lifetimeSeconds?: number; claims?: Record<string, unknown> }): Promise<string> };
  close(): Promise<void>;
}

export interface GraphConnection {
  graph: GraphClient;
  /** The HTTP transport behind it, with its trust: for other calls to the same authority (signing keys). */
  transport: HttpTransport;
  /** The Graph client's tokens: whether one can be had is part of the server's readiness. */
  tokens: AccessTokenSource;
  /** "Contoso (demo)" in demo mode; the tenant id otherwise. */
  tenantLabel: string;
  demo: boolean;
  /** Whose state the store keeps for this connection (`tenantKeyOf`). */
  tenantKey: TenantKey;
  /** The simulated tenant behind a demo connection. */
  demoTenant: DemoTenant | undefined;
  /** The Entra tenant and app the tab's SSO tokens come from (the simulator's in demo mode). */
  identity: { authorityHost: string; tenantId: string; clientId: string };
  close(): Promise<void>;
}

export interface DemoConnectionOptions {
  /** Another app registration of the simulator's (with other roles); the default one otherwise. */
  clientId?: string;
  credential?: ClientCredential;
  /** The client's options; its `reads` (what it may read) are the product's seven reports' and "what applies"' unless given. */
  clientOptions?: Partial<GraphClientOptions>;
  /** The token source's clock, for tests of expiry. */
  tokenClock?: () => number;
}

/**
 * A connection to a running simulated tenant, wired as to a real one: msal-node against its
 * authority, its CA trusted besides the system roots (never by switching verification off).
 * Closing it leaves the simulated tenant running.
 */
export function connectToDemoTenant(simulator: DemoTenant, options: DemoConnectionOptions = {}): GraphConnection {
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
    graph: new GraphClient({ baseUrl: simulator.graphUrl, tokens, transport, reads: PRODUCT_READS, ...options.clientOptions }),
    transport,
    tokens,
    tenantLabel: simulator.tenant.displayName,
    demo: true,
    tenantKey: tenantKeyOf({ demo: true, tenantId: simulator.tenantId }),
    demoTenant: simulator,
    identity: { authorityHost: simulator.authorityHost, tenantId: simulator.tenantId, clientId: simulator.clientId },
    close: () => transport.close(),
  };
}

/**
 * The one place that turns configuration into a Graph client and the identity the tab's tokens are
 * checked against: the configured tenant or, in demo mode, the simulated tenant that
 * `startDemoTenant` starts (the entry point's, which alone knows the simulator).
 */
export async function openGraphConnection(
  connection: TenantConnection,
  options: {
    onExchange?: (exchange: GraphExchange) => void;
    /** Each Graph call once it ends (telemetry's dependency). */
    onCall?: (call: GraphCall) => void;
    betaCoverage?: boolean;
    /** The viewer scope is on (`VIEWER_SCOPE=intune-rbac`): the client reads the objects' scope tags where only `/beta` gives them. */
    scopeTags?: boolean;
    /** The reads the client may make: `upstreamReadsOf` the registry the app serves; the product's own unless given. */
    reads?: readonly UpstreamRead[];
    /** Starts the simulated tenant demo mode reads; closed with the connection. */
    startDemoTenant?: () => Promise<DemoTenant>;
  } = {},
): Promise<GraphConnection> {
  const clientOptions = {
    reads: options.reads ?? PRODUCT_READS,
    betaCoverage: options.betaCoverage === true,
    scopeTags: options.scopeTags === true,
    ...(options.onExchange ? { onExchange: options.onExchange } : {}),
    ...(options.onCall ? { onCall: options.onCall } : {}),
  };
  if (connection.mode === 'demo') {
    if (!options.startDemoTenant) throw new Error('Demo mode needs the simulated tenant: the entry point passes startDemoTenant.');
    const simulator = await options.startDemoTenant();
    const connected = connectToDemoTenant(simulator, { clientOptions });
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
    tokens,
    tenantLabel: connection.tenantId,
    demo: false,
    tenantKey: tenantKeyOf({ demo: false, tenantId: connection.tenantId }),
    demoTenant: undefined,
    identity: { authorityHost: connection.authorityHost, tenantId: connection.tenantId, clientId: connection.clientId },
    close: () => transport.close(),
  };
}

/**
 * The key a tenant's state is kept under in the state store: its id in lower case, and for a
 * simulated tenant `demo-<id>`, so that trying the demo first leaves nothing in a real tenant's
 * history or triage. A tenant configured by its domain name rather than its id is keyed by that
 * name: configure it one way (docs/contract.md, "State").
 */
export function tenantKeyOf(tenant: { demo: boolean; tenantId: string }): TenantKey {
  const id = tenant.tenantId.trim().toLowerCase();
  // The configuration refuses such a tenant id (config.ts); one here is a bug, not a tenant to serve.
  if (!tenant.demo && id.startsWith('demo-')) throw new Error(`A configured tenant's key would be a demo tenant's: ${JSON.stringify(id)}`);
  return tenant.demo ? `demo-${id}` : id;
}
