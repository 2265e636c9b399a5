import { setTimeout as sleep } from 'node:timers/promises';
import { errorText } from '../core/error-text.js';
import { ConfigError } from './config.js';
import type { LockOutcome, StateStore, StateStoreKind, TenantKey } from '../store/state-store.js';

/**
 * Where the opening of the state store stands, for /readyz and for the requests that need the
 * store (docs/contract.md, "Health").
 */
export type StoreOpeningState = { open: true } | { open: false; reason: string };

/** What the server's readiness and its gate read of a store that is opened in the background. */
export interface StoreOpening {
  state(): StoreOpeningState;
  /** Waits up to `ms` for the store to be open (without `ms`, until it is); whether it is. */
  whenOpen(ms?: number): Promise<boolean>;
}

/** A store asked for before it was open: the caller answers 503 (the server's gate stops most such requests first). */
export class StateStoreNotOpenError extends Error {
  override readonly name = 'StateStoreNotOpenError';
}

/**
 * Waits between attempts, in milliseconds, the last repeated. Azure applies a new role assignment
 * within minutes of the first provision ("Troubleshoot Azure RBAC": changes can take up to 10
 * minutes), so the attempts go on for as long as the process runs, no closer than a minute apart
 * once the first ones have failed.
 */
const RETRY_DELAYS_MS = [2_000, 5_000, 10_000, 30_000, 60_000];

export interface OpeningStateStoreOptions {
  /** What the store will be (`stateStoreKind`), known before it is open: the services pick how loads are shared by it. */
  kind: StateStoreKind;
  tenant: TenantKey;
  /** One attempt at opening it (`openStateStore`). */
  open: () => Promise<StateStore>;
  log: (line: string) => void;
  /** Once open (the scheduler starts then). */
  onOpen?: (store: StateStore) => void;
  /** A setting the store refuses (a ConfigError): no attempt can succeed, so the process stops with it. */
  onConfigError: (error: ConfigError) => void;
  retryDelaysMs?: readonly number[];
}

/**
 * The state store, opened in the background while the server already answers (issue: a first
 * start on App Service used to exit while the identity's new role on the storage was not applied
 * yet, and App Service restarted it again and again). Until the store is open, each of its methods
 * throws `StateStoreNotOpenError`; the server's gate answers the requests that need it with 503 and
 * Retry-After (src/server/startup-gate.ts), and /readyz names it.
 */
export function openStateStoreInBackground(options: OpeningStateStoreOptions): StateStore & StoreOpening {
  const delays = options.retryDelaysMs ?? RETRY_DELAYS_MS;
  let store: StateStore | undefined;
  let state: StoreOpeningState = { open: false, reason: `the state store (${options.kind}) is being opened` };
  let closed = false;
  let markOpen: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (markOpen = resolve));
  // Storage that refuses the identity answers 403 (AuthorizationPermissionMismatch) until Azure applies the role.
  const hint = options.kind === 'azure-blob' ? "; the identity's role on the storage may not be applied yet (minutes after the first provision)" : '';

  void (async () => {
    for (let attempt = 0; !closed; attempt += 1) {
      try {
        const opening = await options.open();
        if (closed) {
          await opening.close();
          return;
        }
        store = opening;
        state = { open: true };
        if (attempt > 0) options.log(`state store: open after ${attempt + 1} attempts.`);
        markOpen();
        options.onOpen?.(opening);
        return;
      } catch (error) {
        if (error instanceof ConfigError) {
          state = { open: false, reason: `the state store cannot be opened as configured: ${error.message}` };
          options.onConfigError(error);
          return;
        }
        const delay = delays[Math.min(attempt, delays.length - 1)]!;
        state = { open: false, reason: `the state store (${options.kind}) is not reachable yet: ${errorKind(error)}${hint}` };
        options.log(`state store: could not be opened (attempt ${attempt + 1}, next in ${delay / 1000} s): ${errorText(error)}`);
        await sleep(delay, undefined, { ref: false });
      }
    }
  })();

  const ready = (): StateStore => {
    if (!store) throw new StateStoreNotOpenError('The state store is not open yet.');
    return store;
  };
  return {
    kind: options.kind,
    tenant: options.tenant,
    state: () => state,
    async whenOpen(ms) {
      if (store) return true;
      const open = opened.then(() => true);
      if (ms === undefined) return open;
      const wait = new AbortController();
      const timeout = sleep(ms, false, { signal: wait.signal }).catch(() => false);
      return Promise.race([open, timeout]).finally(() => wait.abort());
    },
    putInstallation: async (key, reference, put) => ready().putInstallation(key, reference, put),
    removeInstallation: async (key) => ready().removeInstallation(key),
    listInstallations: async () => ready().listInstallations(),
    readLedger: async (channel) => ready().readLedger(channel),
    writeLedger: async (ledger) => ready().writeLedger(ledger),
    readDocument: async (name) => ready().readDocument(name),
    writeDocument: async (name, text) => ready().writeDocument(name, text),
    readCompressed: async (name) => ready().readCompressed(name),
    writeCompressed: async (name, text) => ready().writeCompressed(name, text),
    withLock: async <T>(name: string, work: () => Promise<T>, lock?: { waitMs?: number }): Promise<LockOutcome<T>> => ready().withLock(name, work, lock),
    async close() {
      closed = true;
      await store?.close();
    },
  };
}

/** An error's code or class only: /readyz says nothing of the inside (docs/architecture.md, "Security model"). */
function errorKind(error: unknown): string {
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  const parts = [typeof code === 'string' ? code : undefined, typeof statusCode === 'number' ? String(statusCode) : undefined].filter(Boolean);
  if (parts.length > 0) return parts.join(' ');
  return error instanceof Error ? error.name : 'unknown error';
}
