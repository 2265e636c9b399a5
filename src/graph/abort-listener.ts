/** Each signal's waiters, told by the one listener this module keeps on it. */
const waitersOf = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `onAbort` when `signal` aborts, until the function returned is called. A load's signal is
 * shared by every request it makes, and each of them that waits (to retry, for the budget) listens
 * on it: a `$batch` read throttled at once has more than ten waiting, which Node takes for a leak of
 * listeners and warns of on standard error, where `dmhealth` writes. So one listener on the signal
 * tells them all; each waiter leaves when its wait ends.
 */
export function listenForAbort(signal: AbortSignal, onAbort: () => void): () => void {
  let waiters = waitersOf.get(signal);
  if (!waiters) {
    const created = new Set<() => void>();
    waitersOf.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waitersOf.delete(signal);
        for (const waiter of created) waiter();
      },
      { once: true },
    );
    waiters = created;
  }
  const waiter = () => onAbort();
  waiters.add(waiter);
  return () => waiters.delete(waiter);
}
