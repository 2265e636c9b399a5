import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GraphError } from '../../src/core/graph/graph-error.js';
import { createHttpTransport } from '../../src/graph/http-transport.js';
import type { HttpTransport } from '../../src/graph/http-transport.js';
import { requestIdentityToken } from '../../src/graph/managed-identity.js';

const HEADER_VALUE = 'identity-header-3b1f9c';
const CLIENT_ID = '5f0e2a77-1c3d-4e5f-8a9b-0c1d2e3f4a5b';

/** An identity endpoint that answers `status` with a message echoing the request's X-IDENTITY-HEADER, as a careless one might. */
let status = 400;
let endpoint: Server;
let transport: HttpTransport;

beforeAll(async () => {
  endpoint = createServer((request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ statusCode: status, message: `Bad request: header ${String(request.headers['x-identity-header'])}\nsecond line` }));
  });
  await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
  transport = createHttpTransport();
});

afterAll(async () => {
  await transport?.close();
  await new Promise((resolve) => endpoint?.close(resolve));
});

describe("a refusal from App Service's identity endpoint", () => {
  it.each([[400], [401], [404], [500]])('is its status and a fixed description, never the text it echoes (%i)', async (answered) => {
    status = answered;
    const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/msi/token`;
    const failure = await requestIdentityToken({ clientId: CLIENT_ID, endpoint: url, header: HEADER_VALUE }, 'api://AzureADTokenExchange', transport).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(GraphError);
    const error = failure as GraphError;
    expect(error.status).toBe(answered);
    expect(error.message).toContain(CLIENT_ID);
    expect(error.message).toContain(`it answered ${answered}`);
    expect(error.message).not.toContain(HEADER_VALUE);
    expect(error.message).not.toContain('Bad request');
  });
});
