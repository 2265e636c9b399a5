import type { Server } from 'restify';
import type { StoreOpening } from '../app/opening-state-store.js';

/** Seconds a caller is told to wait (Retry-After) while the state store is being opened: about the time between two attempts. */
export const STORE_RETRY_AFTER_SECONDS = 10;

/**
 * Whether a request needs the state store: a report (each load adds to the history, a summary
 * reads the triage and the history, shared loads hold a lease), the triage, the bot (installations,
 * ledgers, schedules) and notify (ledgers). The catalogue, the tenant's label, the demo sign-in,
 * what applies, the tab's files and the health routes do not.
 */
export function needsStateStore(path: string): boolean {
  return path.startsWith('/api/reports/') || path === '/api/baseline' || path === '/api/messages' || path === '/api/notify';
}

/**
 * While the state store is not open yet (src/app/opening-state-store.ts), a request that needs it
 * is answered 503 with Retry-After rather than served without its history, triage or ledger
 * (docs/contract.md, "Health"). Registered before every route.
 */
export function registerStartupGate(server: Server, opening: StoreOpening): void {
  server.pre((req, res, next) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const state = opening.state();
    if (state.open || !needsStateStore(path)) return next();
    res.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    res.send(503, { error: { status: 503, message: 'The app is starting: its state store is not open yet (see /readyz). Try again shortly.' } });
    return next(false);
  });
}
