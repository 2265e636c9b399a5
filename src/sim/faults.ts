import { errorAnswer } from './graph-exchange.js';
import type { RequestContext, SimAnswer } from './graph-exchange.js';

/**
 * Faults on demand, per path, in the spirit of Microsoft's Dev Proxy: slow answers, throttling
 * bursts, gateway errors, broken bodies and dropped connections. They apply to plain requests and
 * to sub-requests inside `$batch` alike (a reset or malformed body only makes sense on a whole
 * HTTP exchange, so inside a batch those two become a 503 sub-response).
 */
export interface FaultRule {
  /**
   * Which requests: a path with its version segment (`/v1.0/deviceManagement/managedDevices`), a
   * path without it (`/deviceManagement/managedDevices`, either version), or a RegExp tested on the
   * versioned path.
   */
  path: string | RegExp;
  /** Extra delay before the answer. */
  latencyMs?: number;
  /** Answer with this status and a Graph error body instead (429, 503, 504, 500…). */
  status?: number;
  /** `Retry-After` seconds on a status answer. */
  retryAfterSeconds?: number;
  /** Answer 200 with a body that is not valid JSON. */
  malformed?: boolean;
  /** Destroy the connection without an answer. */
  reset?: boolean;
  /** Rewrite the answer's `@odata.nextLink` to point at this origin (a misbehaving or hostile upstream). */
  nextLinkOrigin?: string;
  /** Rewrite the answer's `@odata.nextLink` to this path on the same host (another resource). */
  nextLinkPath?: string;
  /** Rewrite the answer's `@odata.nextLink` to the request's own URL: a chain that never ends. */
  nextLinkSelf?: boolean;
  /**
   * Answer 200 with exactly this body, uncompressed whatever the client accepts (a server or proxy
   * that ignores Accept-Encoding): records that are not objects, a page of hundreds of megabytes.
   */
  rawBody?: () => string;
  /** How many matching requests the rule affects; every one when absent. */
  times?: number;
}

export type FaultEffect = Omit<FaultRule, 'path' | 'times'>;

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
}

export class FaultInjector {
  private rules: ActiveRule[] = [];

  /** Adds a rule; the function it returns removes it. */
  add(rule: FaultRule): () => void {
    const active = { rule, remaining: rule.times ?? Number.POSITIVE_INFINITY };
    this.rules.push(active);
    return () => {
      this.rules = this.rules.filter((candidate) => candidate !== active);
    };
  }

  clear(): void {
    this.rules = [];
  }

  /** The combined effect for one request, consuming one use of every rule it matches. */
  take(versionedPath: string): FaultEffect | undefined {
    let effect: FaultEffect | undefined;
    for (const active of this.rules) {
      if (active.remaining <= 0 || !matches(active.rule.path, versionedPath)) continue;
      active.remaining -= 1;
      const { path: _path, times: _times, ...rest } = active.rule;
      effect = { ...effect, ...rest, latencyMs: (effect?.latencyMs ?? 0) + (rest.latencyMs ?? 0) };
    }
    this.rules = this.rules.filter((active) => active.remaining > 0);
    return effect;
  }
}

function matches(pattern: string | RegExp, versionedPath: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(versionedPath);
  if (pattern === versionedPath) return true;
  const withoutVersion = versionedPath.replace(/^\/(v1\.0|beta)/, '');
  return pattern === withoutVersion;
}

/** The answer a fault makes in place of the resource's: a malformed body, or a Graph error with the fault's status. */
export function faultAnswer(fault: FaultEffect, context: RequestContext, origin: string): SimAnswer {
  if (fault.malformed) {
    return { status: 200, rawBody: `{"@odata.context":"${origin}/$metadata#value","value":[{"id":"` };
  }
  const status = fault.status ?? 503;
  const headers: Record<string, string> = fault.retryAfterSeconds === undefined ? {} : { 'retry-after': String(fault.retryAfterSeconds) };
  const [code, message] =
    status === 429
      ? ['TooManyRequests', 'Too many requests from this application. Retry after the number of seconds in Retry-After.']
      : status === 504
        ? ['GatewayTimeout', 'The gateway did not receive a response from the service in time.']
        : status === 503
          ? ['ServiceUnavailable', 'The service is temporarily unavailable. Retry later.']
          : ['UnknownError', `Injected failure with status ${status}.`];
  return errorAnswer(context, status, code, message, headers);
}

/** Points the answer's `@odata.nextLink` where the fault says: another origin or another path. */
export function redirectNextLink(answer: SimAnswer, fault: FaultEffect): void {
  const body = answer.body as Record<string, unknown> | undefined;
  const nextLink = body?.['@odata.nextLink'];
  if (typeof nextLink !== 'string') return;
  const url = new URL(nextLink);
  body!['@odata.nextLink'] = `${fault.nextLinkOrigin ?? url.origin}${fault.nextLinkPath ?? url.pathname}${url.search}`;
}
