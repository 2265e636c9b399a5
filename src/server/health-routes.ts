import type { Request, Response, Server } from 'restify';
import { GraphError } from '../core/graph/graph-error.js';
import type { AccessTokenSource } from '../graph/token-source.js';
import type { StateStore } from '../store/state-store.js';
import type { StoreOpening } from '../app/opening-state-store.js';
import { describeMissingPermissions, missingPermissions } from '../app/graph-consent.js';
import type { RequiredPermission } from '../app/graph-consent.js';

/** One readiness check's outcome: its reason when it fails, in words that hold no tenant data. */
export type ReadinessCheck = { ok: true } | { ok: false; reason: string };

export interface Readiness {
  /** Whether the server is stopping (SIGTERM): it then answers not ready, so no new traffic is sent. */
  stopping(): boolean;
  markStopping(): void;
  /** The checks behind /readyz, by name. */
  check(): Promise<Record<string, ReadinessCheck>>;
}

/** How long a /readyz answer is reused: the route needs no sign-in, so callers must not drive Graph or the store. */
const READINESS_REUSE_MS = 10_000;

export interface ReadinessOptions {
  tokens: AccessTokenSource | undefined;
  store: StateStore;
  /** A store opened in the background (src/app/opening-state-store.ts): not ready until it is open. */
  opening?: StoreOpening;
  /** The permissions the reports declare (`requiredGraphPermissions`): the token's `roles` must hold each. */
  requiredPermissions?: readonly RequiredPermission[];
  now?: () => number;
}

/**
 * The checks a running server's readiness rests on (docs/contract.md, "Health"): its configuration
 * was read (the server would not run otherwise), the state store is open and answers a read, and a
 * Graph token can be had that holds every permission the reports declare (a client-credentials
 * token is issued without the roles admin consent did not grant). A failure says which part failed
 * and its kind (an Entra error code, an HTTP status, a permission's name), never a tenant's id,
 * name or data, nor the token.
 */
export function createReadiness(options: ReadinessOptions): Readiness {
  const now = options.now ?? Date.now;
  let stopping = false;
  let last: { at: number; result: Promise<Record<string, ReadinessCheck>> } | undefined;
  const run = async (): Promise<Record<string, ReadinessCheck>> => {
    const opening = options.opening?.state();
    const [stateStore, graphToken] = await Promise.all([
      opening && !opening.open
        ? Promise.resolve<ReadinessCheck>({ ok: false, reason: opening.reason })
        : options.store.readDocument('readiness-probe').then(
            (): ReadinessCheck => ({ ok: true }),
            (error: unknown): ReadinessCheck => ({ ok: false, reason: `the state store (${options.store.kind}) could not be read: ${errorKind(error)}` }),
          ),
      options.tokens
        ? options.tokens.getToken().then(
            (token): ReadinessCheck => {
              const missing = missingPermissions(token, options.requiredPermissions ?? []);
              return missing.length === 0 ? { ok: true } : { ok: false, reason: describeMissingPermissions(missing) };
            },
            (error: unknown): ReadinessCheck => ({ ok: false, reason: `no Microsoft Graph token could be had: ${errorKind(error)}` }),
          )
        : Promise.resolve<ReadinessCheck>({ ok: true }),
    ]);
    return { configuration: { ok: true }, stateStore, graphToken };
  };
  return {
    stopping: () => stopping,
    markStopping() {
      stopping = true;
    },
    check() {
      if (!last || now() - last.at >= READINESS_REUSE_MS) last = { at: now(), result: run() };
      return last.result;
    },
  };
}

/** Only the failure's kind and code: a Graph or token error's code and status, or the error's class. */
function errorKind(error: unknown): string {
  if (error instanceof GraphError) return [error.kind, error.code, error.status].filter((part) => part !== undefined && part !== '').join(' ');
  const code = (error as { code?: unknown; statusCode?: unknown })?.code ?? (error as { statusCode?: unknown })?.statusCode;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : error instanceof Error ? error.name : 'unknown error';
}

/**
 * `GET /healthz`: the process answers (App Service's health check pings it and replaces an instance
 * that stops answering). `GET /readyz`: 200 `ready` when every check passes, 503 `not ready`
 * otherwise, and 503 `stopping` while stopping. Neither needs a sign-in, so neither says which check
 * failed or why: that tells whoever asks which part of the app is down or unconfigured. The failing
 * checks and their reasons go to the log instead, once per run of the checks (docs/contract.md, "Health").
 */
export function registerHealthRoutes(server: Server, readiness: Readiness | undefined, log: (line: string) => void = () => {}): void {
  let logged: Record<string, ReadinessCheck> | undefined;
  server.get('/healthz', async (_req: Request, res: Response) => {
    res.send(200, { status: 'ok' });
  });
  server.get('/readyz', async (_req: Request, res: Response) => {
    if (!readiness) {
      res.send(200, { status: 'ready' });
      return;
    }
    if (readiness.stopping()) {
      res.send(503, { status: 'stopping' });
      return;
    }
    const checks = await readiness.check();
    const failing = Object.entries(checks).filter((entry): entry is [string, Extract<ReadinessCheck, { ok: false }>] => !entry[1].ok);
    // The checks are run again at most every ten seconds, and each run's failures are logged once.
    if (failing.length > 0 && logged !== checks) log(`not ready: ${failing.map(([name, check]) => `${name}: ${check.reason}`).join('; ')}`);
    logged = checks;
    res.send(failing.length === 0 ? 200 : 503, { status: failing.length === 0 ? 'ready' : 'not ready' });
  });
}
