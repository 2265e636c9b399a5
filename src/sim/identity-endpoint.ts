import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SimEntra, SimManagedIdentity } from './entra.js';

/**
 * App Service's local identity endpoint for one user-assigned managed identity, as its REST protocol
 * describes it (https://learn.microsoft.com/azure/app-service/overview-managed-identity#rest-endpoint-reference):
 * plain HTTP on this machine (App Service's IDENTITY_ENDPOINT is a local http:// URL), GET with the
 * query parameters `resource` and `api-version` (2019-08-01), the `X-IDENTITY-HEADER` header holding
 * IDENTITY_HEADER's value, and `client_id` naming the user-assigned identity. The answer holds
 * `access_token`, `expires_on` (seconds since the epoch, as a string), `resource`, `token_type` and
 * `client_id`. The error statuses and messages are this look-alike's: the page does not list them.
 */
export interface SimIdentityEndpoint {
  /** IDENTITY_ENDPOINT's value. */
  readonly endpoint: string;
  /** IDENTITY_HEADER's value: a secret of this machine's, made anew at each start. */
  readonly header: string;
  readonly identity: SimManagedIdentity;
  /** Tokens handed out so far, by resource. */
  readonly issued: Map<string, number>;
  close(): Promise<void>;
}

const API_VERSION = '2019-08-01';

/**
 * The resources this tenant has a service principal for: the token exchange (federated credentials),
 * Azure Storage and the Bot Framework. Entra refuses a token for any other with AADSTS500011.
 */
const KNOWN_RESOURCES = new Set(['api://AzureADTokenExchange', 'https://storage.azure.com', 'https://api.botframework.com']);

export async function startIdentityEndpoint(options: {
  entra: SimEntra;
  identity: SimManagedIdentity;
  host: string;
  tokenLifetimeSeconds: () => number;
}): Promise<SimIdentityEndpoint> {
  const header = randomBytes(24).toString('base64url');
  const issued = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      console.error('simulator identity endpoint: unhandled error', error);
      if (!res.headersSent) send(res, 500, { statusCode: 500, message: 'The identity endpoint failed on this request.' });
      else res.destroy();
    });
  });
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/msi/token') return send(res, 404, { statusCode: 404, message: `No such endpoint: ${url.pathname}` });
    if (req.method !== 'GET') return send(res, 405, { statusCode: 405, message: 'The identity endpoint answers GET only.' });
    // The header proves the caller runs inside the app: without it (or with another value) nothing is said.
    if (req.headers['x-identity-header'] !== header) return send(res, 401, { statusCode: 401, message: 'The X-IDENTITY-HEADER header is missing or wrong.' });
    if (url.searchParams.get('api-version') !== API_VERSION) {
      return send(res, 400, { statusCode: 400, message: `The api-version query parameter must be ${API_VERSION}.` });
    }
    const resource = url.searchParams.get('resource');
    if (!resource) return send(res, 400, { statusCode: 400, message: 'The resource query parameter is required.' });
    // A Web App may hold several identities: a caller names one by client_id, principal_id or mi_res_id.
    const ids = ['client_id', 'principal_id', 'mi_res_id'].filter((name) => url.searchParams.has(name));
    if (ids.length > 1) return send(res, 400, { statusCode: 400, message: 'Only one of client_id, principal_id and mi_res_id may be given.' });
    const clientId = url.searchParams.get('client_id');
    if (clientId !== options.identity.clientId) {
      // The app has no system-assigned identity, so an unnamed identity is not found either.
      return send(res, 400, { statusCode: 400, message: 'No managed identity found for the specified client_id.', correlationId: randomUUID() });
    }
    const normalised = resource.replace(/\/(\.default)?$/, '');
    if (!KNOWN_RESOURCES.has(normalised)) {
      return send(res, 400, {
        statusCode: 400,
        message: `AADSTS500011: The resource principal named ${resource} was not found in the tenant.`,
        correlationId: randomUUID(),
      });
    }
    const lifetime = options.tokenLifetimeSeconds();
    const accessToken = await options.entra.issueManagedIdentityToken(options.identity, normalised, lifetime);
    issued.set(normalised, (issued.get(normalised) ?? 0) + 1);
    send(res, 200, {
      access_token: accessToken,
      expires_on: String(Math.floor(Date.now() / 1000) + lifetime),
      resource,
      token_type: 'Bearer',
      client_id: options.identity.clientId,
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, options.host, () => resolve());
  });
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host === '::1' ? '[::1]' : options.host;
  return {
    endpoint: `http://${host}:${port}/msi/token`,
    header,
    identity: options.identity,
    issued,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
