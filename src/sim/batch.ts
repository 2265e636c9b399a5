import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SimGraphAccess } from './graph-access.js';
import { errorAnswer, headerValue, serialise } from './graph-exchange.js';
import type { RequestContext, SimAnswer } from './graph-exchange.js';
import { faultAnswer } from './faults.js';
import type { FaultInjector } from './faults.js';

/**
 * JSON batching (learn.microsoft.com/graph/json-batching): up to 20 GET sub-requests in one POST,
 * each answered as a request of its own (throttled, refused or faulted on its own, and logged one
 * by one), the answers in an order clients must not rely on.
 */

const MAX_BATCH_REQUESTS = 20;

/** What a `$batch` needs of the service it is posted to. */
export interface BatchHost {
  origin: string;
  access: SimGraphAccess;
  faults: FaultInjector;
  /** Seeds the order of the answers. */
  random: () => number;
  /** Answers one authenticated sub-request as a plain request is answered. */
  answer(context: RequestContext): Promise<SimAnswer>;
  log(context: RequestContext, status: number): void;
}

export async function answerBatch(context: RequestContext, rawBody: string | undefined, host: BatchHost): Promise<SimAnswer> {
  const refusal = await host.access.authenticate(context);
  if (refusal) return refusal;
  let requests: unknown;
  try {
    requests = (JSON.parse(rawBody ?? '') as { requests?: unknown }).requests;
  } catch {
    return errorAnswer(context, 400, 'BadRequest', 'Invalid batch payload format.');
  }
  if (!Array.isArray(requests) || requests.length === 0) return errorAnswer(context, 400, 'BadRequest', 'Invalid batch payload format.');
  if (requests.length > MAX_BATCH_REQUESTS) {
    return errorAnswer(context, 400, 'BadRequest', `Number of batch request steps exceeds the maximum of ${MAX_BATCH_REQUESTS}.`);
  }
  const ids = new Set<string>();
  for (const request of requests as Array<Record<string, unknown>>) {
    if (typeof request?.id !== 'string' || typeof request.url !== 'string' || typeof request.method !== 'string') {
      return errorAnswer(context, 400, 'BadRequest', 'Each batch request needs an id, a method and a url.');
    }
    if (ids.has(request.id.toLowerCase())) return errorAnswer(context, 400, 'BadRequest', `Batch request id '${request.id}' is duplicated.`);
    ids.add(request.id.toLowerCase());
  }

  const version = context.versionedPath.startsWith('/beta') ? 'beta' : 'v1.0';
  const responses = await Promise.all(
    (requests as Array<{ id: string; method: string; url: string; headers?: Record<string, string> }>).map(async (request) => {
      const relative = request.url.startsWith('/') ? request.url : `/${request.url}`;
      const subUrl = new URL(`/${version}${relative}`, host.origin);
      const sub: RequestContext = {
        method: request.method.toUpperCase(),
        versionedPath: subUrl.pathname,
        query: subUrl.searchParams,
        headers: { ...lowerCaseKeys(request.headers ?? {}), 'user-agent': headerValue(context.headers, 'user-agent') ?? '' },
        requestId: randomUUID(),
        clientRequestId: context.clientRequestId,
        appId: context.appId,
        roles: context.roles,
        inBatch: true,
        logGeneration: context.logGeneration,
      };
      const fault = host.faults.take(sub.versionedPath);
      if (fault?.latencyMs) await sleep(fault.latencyMs);
      const answer =
        fault && (fault.status !== undefined || fault.malformed || fault.reset)
          ? faultAnswer({ ...fault, ...(fault.status === undefined ? { status: 503 } : {}), malformed: false }, sub, host.origin)
          : await host.answer(sub);
      host.log(sub, answer.status);
      const headers: Record<string, string> = { 'Content-Type': 'application/json' };
      for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name === 'retry-after' ? 'Retry-After' : name] = value;
      // A sub-request's body is JSON inside the batch's own, a collection page with its `value` as any other.
      return { id: request.id, status: answer.status, headers, body: answer.rawBody === undefined ? JSON.parse(serialise(answer)) : answer.rawBody };
    }),
  );
  // "The order of responses is not guaranteed": shuffle so clients never rely on it.
  for (let index = responses.length - 1; index > 0; index -= 1) {
    const other = Math.floor(host.random() * (index + 1));
    [responses[index], responses[other]] = [responses[other]!, responses[index]!];
  }
  return { status: 200, body: { responses } };
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}
