import type { GraphAttempts } from './graph-attempts.js';
import { GraphError, GraphRequestRefusedError, graphErrorForAnswer } from '../core/graph/graph-error.js';
import type { BatchOutcome, BatchSubRequest } from '../core/graph/graph-reader.js';
import { budgetOf } from './request-budget.js';
import type { BudgetCost } from './request-budget.js';
import { isRetryableStatus } from './retry-policy.js';

export interface BatchGetOptions {
  /** Where the calls go: `POST /v1.0/$batch` or `POST /beta/$batch` on the configured origin; the sub-requests' URLs are relative to its version. */
  url: URL;
  /** Sub-requests per call, 1 to `MAX_BATCH_SIZE`. */
  batchSize: number;
  signal?: AbortSignal;
}

/** One sub-request's answer inside a `$batch` response: header names in lower case, the body as JSON. */
interface SubAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/**
 * GET sub-requests through `$batch`, `batchSize` to a call and every call in flight at once (the
 * concurrency limit of `attempts` paces them). Sub-requests answered 429/503/504 are sent again by
 * themselves after the delay they name; each sub-request ends as its own outcome, so one failure
 * never hides the others' answers.
 */
export async function getThroughBatch(attempts: GraphAttempts, requests: readonly BatchSubRequest[], options: BatchGetOptions): Promise<Map<string, BatchOutcome>> {
  const ids = new Set<string>();
  const version = options.url.pathname.split('/')[1];
  for (const request of requests) {
    if (ids.has(request.id)) throw new GraphRequestRefusedError(`Duplicate $batch sub-request id "${request.id}".`);
    ids.add(request.id);
    const pathname = new URL(request.url, 'https://batch.invalid/').pathname;
    if (!request.url.startsWith('/') || !attempts.allowList.isAllowed(`/${version}${pathname}`)) {
      throw new GraphRequestRefusedError(`Refused $batch sub-request GET ${request.url}: not a path this service may read.`);
    }
  }
  const outcomes = new Map<string, BatchOutcome>();
  const chunks: BatchSubRequest[][] = [];
  for (let start = 0; start < requests.length; start += options.batchSize) chunks.push(requests.slice(start, start + options.batchSize));
  await Promise.all(chunks.map((chunk) => runChunk(attempts, chunk, outcomes, version, options)));
  return outcomes;
}

/** One chunk's calls: the first with every sub-request, each later round with those to retry. */
async function runChunk(
  attempts: GraphAttempts,
  chunk: BatchSubRequest[],
  outcomes: Map<string, BatchOutcome>,
  version: string | undefined,
  options: BatchGetOptions,
): Promise<void> {
  const { signal } = options;
  const waits = attempts.retryWaits(signal);
  let pending = chunk;
  for (let round = 1; pending.length > 0; round += 1) {
    const body = JSON.stringify({
      requests: pending.map((request) => ({
        id: request.id,
        method: 'GET',
        url: request.url,
        ...(request.headers ? { headers: request.headers } : {}),
      })),
    });
    let answers: Map<string, SubAnswer>;
    try {
      const { body: batchBody, requestPath } = await attempts.sendForJson('POST', options.url, {
        body,
        headers: { 'content-type': 'application/json' },
        cost: costOf(pending, version),
        ...(signal ? { signal } : {}),
      });
      answers = readBatchResponses(batchBody, requestPath);
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      for (const request of pending) outcomes.set(request.id, { ok: false, error });
      return;
    }

    const again: Array<{ request: BatchSubRequest; error: GraphError; retryAfter: string | undefined }> = [];
    for (const request of pending) {
      const answer = answers.get(request.id.toLowerCase());
      const path = `/${version}${request.url}`;
      if (!answer) {
        again.push({
          request,
          retryAfter: undefined,
          error: new GraphError({ kind: 'malformed-response', message: 'the $batch response has no answer for this sub-request', method: 'GET', path, attempts: round }),
        });
        continue;
      }
      if (answer.status >= 200 && answer.status < 300) {
        outcomes.set(request.id, { ok: true, status: answer.status, body: answer.body });
        continue;
      }
      const error = graphErrorForAnswer(answer, { method: 'GET', path, attempts: round });
      if (isRetryableStatus(answer.status)) again.push({ request, error, retryAfter: answer.headers['retry-after'] });
      else outcomes.set(request.id, { ok: false, error });
    }
    if (again.length === 0) return;

    const throttled = again.some((entry) => entry.error.status === 429);
    if (
      !(await waits.beforeRetry(
        round,
        again.map((entry) => entry.retryAfter),
        throttled,
      ))
    ) {
      for (const entry of again) outcomes.set(entry.request.id, { ok: false, error: entry.error });
      return;
    }
    pending = again.map((entry) => entry.request);
  }
}

/** Each sub-request is evaluated against Graph's limits on its own: a call spends one unit per sub-request, in its path's budget. */
function costOf(requests: readonly BatchSubRequest[], version: string | undefined): BudgetCost {
  const cost: BudgetCost = {};
  for (const request of requests) {
    const budget = budgetOf(`/${version}${new URL(request.url, 'https://batch.invalid/').pathname}`);
    cost[budget] = (cost[budget] ?? 0) + 1;
  }
  return cost;
}

/** The sub-requests' answers of a `$batch` response, by lower-case id. */
function readBatchResponses(body: unknown, requestPath: string): Map<string, SubAnswer> {
  const responses = (body as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(responses)) {
    throw new GraphError({ kind: 'malformed-response', message: 'the $batch response has no "responses" array', method: 'POST', path: requestPath, attempts: 1 });
  }
  const byId = new Map<string, SubAnswer>();
  for (const entry of responses as Array<Record<string, unknown>>) {
    if (typeof entry?.id !== 'string' || typeof entry.status !== 'number') continue;
    const headers: Record<string, string> = {};
    if (entry.headers && typeof entry.headers === 'object') {
      for (const [name, value] of Object.entries(entry.headers as Record<string, unknown>)) {
        if (typeof value === 'string') headers[name.toLowerCase()] = value;
      }
    }
    // Graph: ids are "not case-sensitive"; responses "may come back in any order".
    byId.set(entry.id.toLowerCase(), { status: entry.status, headers, body: entry.body });
  }
  return byId;
}
