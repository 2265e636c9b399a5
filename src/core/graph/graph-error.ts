/**
 * Why a Graph call failed, as the caller needs to know it:
 * - `http`: Graph answered with an error status (the body is Graph's error envelope when it parses);
 * - `network`: the connection failed or was reset before a complete answer arrived;
 * - `timeout`: no complete answer within the request time-out;
 * - `malformed-response`: a 2xx answer whose body is not the JSON Graph promises;
 * - `token`: the token authority refused or could not be reached, so no request was sent.
 */
export type GraphFailureKind = 'http' | 'network' | 'timeout' | 'malformed-response' | 'token';

export interface GraphErrorDetails {
  kind: GraphFailureKind;
  /** HTTP status of the final attempt; absent when no status line arrived. */
  status?: number;
  /** Graph's `error.code` (or the authority's `error`), e.g. `Authorization_RequestDenied`. */
  code?: string;
  message: string;
  /** Graph's `request-id`, the value Microsoft support asks for. */
  requestId?: string;
  clientRequestId?: string;
  method: string;
  /** Path and query relative to the Graph origin, e.g. `/v1.0/deviceManagement/managedDevices`. */
  path: string;
  attempts: number;
}

/**
 * The one error the Graph client throws for an upstream failure. It carries what a load error shows
 * (status, code, request id) and never a token or a response body that could hold secret material.
 *
 * Graph's error envelope, as documented (learn.microsoft.com/graph/errors):
 *   {"error":{"code":"Authorization_RequestDenied","message":"Insufficient privileges to complete the operation.",
 *             "innerError":{"date":"2025-02-13T10:17:06","request-id":"…","client-request-id":"…"}}}
 */
export class GraphError extends Error {
  override readonly name = 'GraphError';
  readonly kind: GraphFailureKind;
  readonly status: number | undefined;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  readonly clientRequestId: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly attempts: number;

  constructor(details: GraphErrorDetails, options?: { cause?: unknown }) {
    super(details.message, options);
    this.kind = details.kind;
    this.status = details.status;
    this.code = details.code;
    this.requestId = details.requestId;
    this.clientRequestId = details.clientRequestId;
    this.method = details.method;
    this.path = details.path;
    this.attempts = details.attempts;
  }

  /** One line for logs and load errors: `403 Authorization_RequestDenied on GET /v1.0/... (request-id …)`. */
  summary(): string {
    const status = this.status === undefined ? this.kind : String(this.status);
    const code = this.code ? ` ${this.code}` : '';
    const requestId = this.requestId ? ` (request-id ${this.requestId})` : '';
    return `${status}${code} on ${this.method} ${this.path}: ${this.message}${requestId}`;
  }
}

/**
 * The Graph failure a read that may fail caught, to be said as a value ("could not be read"); anything
 * else (a bug such as a `TypeError`, an abort, a refused request) is rethrown, so that it is never
 * said as a group or a role Graph would not give, nor turned into an "unknown" verdict: it fails the
 * whole load instead (the question, or every viewer's scope until it is mended, which is logged).
 */
export function graphFailureOnly(error: unknown): GraphError {
  if (error instanceof GraphError) return error;
  throw error;
}

/**
 * Thrown before a byte is sent when code asks for something the service must never do: a write, a
 * path outside the specification's allow-list, an escrow list's secret fields. It signals a bug,
 * not an upstream condition, so callers do not catch it as a load error.
 */
export class GraphRequestRefusedError extends Error {
  override readonly name = 'GraphRequestRefusedError';
}

/**
 * The `http` error for an answer with an error status, the same for a single request and a `$batch`
 * sub-request, so a load error reads alike whichever way its request went. Graph's envelope gives
 * the code, the message and the request id; the `request-id` header stands in for a body without one.
 */
export function graphErrorForAnswer(
  answer: { status: number; headers: Record<string, string>; body: unknown },
  request: { method: string; path: string; attempts: number; clientRequestId?: string },
): GraphError {
  const parsed = parseGraphErrorBody(answer.body);
  const requestId = parsed.requestId ?? answer.headers['request-id'];
  return new GraphError({
    kind: 'http',
    status: answer.status,
    ...(parsed.code ? { code: parsed.code } : {}),
    message: parsed.message ?? `Graph answered ${answer.status}`,
    ...(requestId ? { requestId } : {}),
    method: request.method,
    path: request.path,
    ...(request.clientRequestId ? { clientRequestId: request.clientRequestId } : {}),
    attempts: request.attempts,
  });
}

interface GraphErrorEnvelope {
  error?: {
    code?: unknown;
    message?: unknown;
    innerError?: { 'request-id'?: unknown; 'client-request-id'?: unknown };
  };
}

/** Reads Graph's error envelope; tolerant of bodies that are not JSON (proxies, gateways). */
function parseGraphErrorBody(body: unknown): { code?: string; message?: string; requestId?: string } {
  let parsed: unknown = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return {};
    }
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  const error = (parsed as GraphErrorEnvelope).error;
  if (typeof error !== 'object' || error === null) return {};
  const result: { code?: string; message?: string; requestId?: string } = {};
  if (typeof error.code === 'string' && error.code) result.code = error.code;
  if (typeof error.message === 'string' && error.message) result.message = error.message;
  const requestId = error.innerError?.['request-id'];
  if (typeof requestId === 'string' && requestId) result.requestId = requestId;
  return result;
}
