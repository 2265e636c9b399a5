import type { IncomingHttpHeaders } from 'node:http';
import { graphErrorBody } from './http-helpers.js';
import type { RecordList } from './tenants/sim-tenant.js';

/**
 * One Graph request as the simulator's parts pass it between them (a plain request, or one
 * sub-request of a `$batch`), and the answer they make before it is sent.
 */
export interface RequestContext {
  method: string;
  versionedPath: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders | Record<string, string>;
  requestId: string;
  clientRequestId: string | undefined;
  appId: string | undefined;
  roles: string[];
  inBatch: boolean;
  logGeneration: number;
}

export interface SimAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Sent as is instead of `body` (a malformed answer). */
  rawBody?: string;
  /** A collection page's records as JSON, sent as `value` after the properties of `body`; made only when sent. */
  valueJson?: () => string[];
  /** Identifies a collection page for the compressed-page cache: the stored collection and the request. */
  pageKey?: { collection: RecordList; key: string };
  reset?: boolean;
}

/** An answer with Graph's error envelope (learn.microsoft.com/graph/errors). */
export function errorAnswer(context: RequestContext, status: number, code: string, message: string, headers?: Record<string, string>): SimAnswer {
  return { status, ...(headers ? { headers } : {}), body: graphErrorBody(code, message, context.requestId, context.clientRequestId) };
}

/** The answer's body as JSON text: a collection page's records written after its metadata, as Graph writes them. */
export function serialise(answer: SimAnswer): string {
  if (answer.rawBody !== undefined) return answer.rawBody;
  if (answer.valueJson === undefined) return JSON.stringify(answer.body ?? {});
  const head = JSON.stringify(answer.body ?? {});
  return `${head.slice(0, -1)}${head === '{}' ? '' : ','}"value":[${answer.valueJson().join(',')}]}`;
}

export function headerValue(headers: IncomingHttpHeaders | Record<string, string>, name: string): string | undefined {
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}
