import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulatorPki } from './certificates.js';
import { SimEntra } from './entra.js';
import { startIdentityEndpoint } from './identity-endpoint.js';
import type { SimIdentityEndpoint } from './identity-endpoint.js';
import type { SimApplication } from './entra.js';
import { FaultInjector } from './faults.js';
import type { Workload } from './resources/resource-model.js';
import { SimGraph } from './graph-service.js';
import { SIM_RESOURCES } from './resources/index.js';
import { SimResourceTable } from './resources/resource-table.js';
import { readBody, sendJson } from './http-helpers.js';
import { seededRandom } from './tenants/seeded-random.js';
import { tenantUserCount } from './tenants/sim-tenant.js';
import type { CollectionName, SimTenant } from './tenants/sim-tenant.js';
import { Throttle, throttleLimitsFor } from './throttling.js';
import type { ThrottleLimit } from './throttling.js';

export interface SimulatorOptions {
  /** The tenant served, with any resources of its own besides the simulator's (`SimTenant.resources`). */
  tenant: SimTenant;
  /** Loopback only: the simulator is never reachable from another machine. */
  host?: '127.0.0.1' | 'localhost' | '::1';
  port?: number;
  /** Added to every Graph exchange, to make the network's round trip visible. */
  latencyMs?: number;
  pageSizes?: Partial<Record<CollectionName, number>>;
  /** Microsoft's per-app limits by default, the identity ones for the tenant's size; `false` turns throttling off. */
  throttling?: boolean | Record<Workload, ThrottleLimit>;
  /** The clock the throttling windows are counted on (a test gives the same one to the client's pacing). */
  throttleClock?: () => number;
  tokenLifetimeSeconds?: number;
  /** Seeds the order of `$batch` answers. */
  seed?: number;
  /**
   * Also serve App Service's identity endpoint for a user-assigned managed identity, which the
   * scenario's app registration trusts through a federated identity credential: the app then reads
   * the tenant with the identity alone, as a Web App does.
   */
  managedIdentity?: boolean;
}

export interface Simulator {
  /** Graph origin, the value of GRAPH_BASE_URL. */
  readonly graphUrl: string;
  /** Token authority origin, the value of M365_AUTHORITY_HOST. */
  readonly authorityHost: string;
  readonly tenantId: string;
  /** The scenario's own app registration, granted the scenario's roles. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** The CA that signed the simulator's TLS certificate, as PEM and as a file for NODE_EXTRA_CA_CERTS. */
  readonly caPem: string;
  readonly caPath: string;
  readonly tenant: SimTenant;
  readonly faults: FaultInjector;
  readonly graph: SimGraph;
  readonly entra: SimEntra;
  /** The identity endpoint, with `managedIdentity`. */
  readonly managedIdentity: SimIdentityEndpoint | undefined;
  latencyMs: number;
  tokenLifetimeSeconds: number;
  /** Registers another application, e.g. one missing a permission. */
  addApplication(app: { roles: readonly string[]; displayName?: string; certificates?: SimApplication['certificates'] }): SimApplication;
  /** Write methods seen so far (anything but GET and the batch POST): must stay 0. */
  violationCount(): number;
  close(): Promise<void>;
}

/**
 * What a client needs to read the simulator as a configured tenant (docs/contract.md,
 * "Configuration"): the environment `dmhealth sim` prints and a test or a bench hands a process.
 */
export function simulatorEnvironment(
  sim: Pick<Simulator, 'graphUrl' | 'authorityHost' | 'tenantId' | 'clientId' | 'clientSecret' | 'caPath'> & { managedIdentity?: SimIdentityEndpoint | undefined },
): Record<string, string> {
  const identity = sim.managedIdentity;
  return {
    GRAPH_BASE_URL: sim.graphUrl,
    M365_AUTHORITY_HOST: sim.authorityHost,
    M365_TENANT_ID: sim.tenantId,
    M365_CLIENT_ID: sim.clientId,
    // With the identity endpoint, the identity is the credential, as on App Service: no secret.
    ...(identity
      ? { MANAGED_IDENTITY_CLIENT_ID: identity.identity.clientId, IDENTITY_ENDPOINT: identity.endpoint, IDENTITY_HEADER: identity.header }
      : { M365_CLIENT_SECRET: sim.clientSecret }),
    NODE_EXTRA_CA_CERTS: sim.caPath,
  };
}

export async function startSimulator(options: SimulatorOptions): Promise<Simulator> {
  // Refused before anything starts: a tenant that brings a resource the simulator serves already.
  const resources = new SimResourceTable([...SIM_RESOURCES, ...(options.tenant.resources ?? [])]);
  const host = options.host ?? '127.0.0.1';
  const pki = await createSimulatorPki();
  const directory = mkdtempSync(join(tmpdir(), 'dmhealth-sim-'));
  const caPath = join(directory, 'ca.pem');
  writeFileSync(caPath, pki.caPem, { mode: 0o644 });

  const tenant = options.tenant;
  const faults = new FaultInjector();
  const random = seededRandom(options.seed ?? 1);
  const throttle =
    options.throttling === false
      ? undefined
      : new Throttle(options.throttling === true || options.throttling === undefined ? throttleLimitsFor(tenantUserCount(tenant)) : options.throttling, options.throttleClock);

  const server: Server = createServer({ cert: pki.serverCertificatePem, key: pki.serverPrivateKeyPem });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `https://${host === '::1' ? '[::1]' : host}:${port}`;

  let latencyMs = options.latencyMs ?? 0;
  let tokenLifetimeSeconds = options.tokenLifetimeSeconds ?? 3599;
  const entra = await SimEntra.create({ origin, tenantId: tenant.tenantId, tenantDomain: tenant.domain, tokenLifetimeSeconds: () => tokenLifetimeSeconds });
  const graph = new SimGraph({
    origin,
    tenant: () => tenant,
    entra,
    faults,
    throttle,
    latencyMs: () => latencyMs,
    pageSizes: options.pageSizes ?? {},
    random,
    resources,
  });

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', origin);
    const body = req.method === 'GET' || req.method === 'HEAD' ? '' : await readBody(req);
    if (body === undefined) {
      sendJson(res, 413, { error: { code: 'RequestEntityTooLarge', message: 'The request body is too large.' } });
      return;
    }
    if (/^\/(v1\.0|beta)(\/|$)/.test(url.pathname)) {
      await graph.handle(req, res, url, body);
      return;
    }
    if (await entra.handle(req, res, url, body)) return;
    sendJson(res, 404, { error: { code: 'NotFound', message: `No such endpoint: ${url.pathname}` } });
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    route(req, res).catch((error: unknown) => {
      // A bug in the simulator: answer like Graph's own internal error and keep serving.
      console.error('simulator: unhandled error', error);
      if (!res.headersSent) sendJson(res, 500, { error: { code: 'InternalServerError', message: 'The simulator failed on this request.' } });
      else res.destroy();
    });
  });
  const identity = options.managedIdentity ? { clientId: randomUUID(), principalId: randomUUID() } : undefined;
  const ownApp = entra.addApplication({
    displayName: 'Device Management Health',
    certificates: [],
    roles: tenant.grantedRoles,
    // The credential an admin adds to the app registration to trust the Web App's identity.
    ...(identity ? { federatedCredentials: [{ issuer: entra.managedIdentityIssuer, subject: identity.principalId, audiences: ['api://AzureADTokenExchange'] }] } : {}),
  });
  const managedIdentity = identity ? await startIdentityEndpoint({ entra, identity, host, tokenLifetimeSeconds: () => 86_400 }) : undefined;
  const sockets = new Set<Socket>();
  server.on('secureConnection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  return {
    graphUrl: origin,
    authorityHost: origin,
    tenantId: tenant.tenantId,
    clientId: ownApp.clientId,
    clientSecret: ownApp.secrets[0]!,
    caPem: pki.caPem,
    caPath,
    tenant,
    faults,
    graph,
    entra,
    managedIdentity,
    get latencyMs() {
      return latencyMs;
    },
    set latencyMs(value: number) {
      latencyMs = value;
    },
    get tokenLifetimeSeconds() {
      return tokenLifetimeSeconds;
    },
    set tokenLifetimeSeconds(value: number) {
      tokenLifetimeSeconds = value;
    },
    addApplication: (app) => entra.addApplication({ displayName: app.displayName ?? 'Test application', certificates: app.certificates ?? [], roles: [...app.roles] }),
    violationCount: () => graph.violations.length,
    async close() {
      for (const socket of sockets) socket.destroy();
      await Promise.all([new Promise<void>((resolve) => server.close(() => resolve())), managedIdentity?.close()]);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
