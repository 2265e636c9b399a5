import { AsyncLocalStorage } from 'node:async_hooks';

/** A request about to be tried again: which path, the attempt that failed, its status, and how long the wait before the next is. */
export interface GraphRetry {
  /** The request's path without its query, e.g. `/v1.0/deviceManagement/managedDevices`. */
  path: string;
  /** The attempt that failed, counted from 1: the next is `attempt + 1`. */
  attempt: number;
  /** The failed attempt's status; undefined when no answer came (a network failure, a time-out). */
  status: number | undefined;
  waitMs: number;
}

/**
 * Who hears the retries of the reads made within one piece of work (a report's load), however deep
 * in the client they happen: the client is shared by every load, so the listener travels with the
 * load's own asynchronous context rather than through every read's arguments.
 */
const listeners = new AsyncLocalStorage<(retry: GraphRetry) => void>();

/** Runs `work` so that every retry of the reads it makes, its own or a callee's, is told to `listener`. */
export function withRetryListener<T>(listener: (retry: GraphRetry) => void, work: () => T): T {
  return listeners.run(listener, work);
}

/** Tells the listener of the current work, if any; a listener's failure is not the read's. */
export function tellRetry(retry: GraphRetry): void {
  try {
    listeners.getStore()?.(retry);
  } catch {
    // The read goes on whatever its listener did.
  }
}
