/**
 * Runs a report's source loads side by side. The first failure aborts the others (their paging
 * stops at the next page), waits until none is still running, and is thrown: a report that cannot
 * load spends no more of the tenant's throttling budget, and leaves nothing behind it.
 */
export async function loadSideBySide<T extends readonly unknown[]>(
  loads: { readonly [K in keyof T]: (signal: AbortSignal) => Promise<T[K]> },
  controller: AbortController = new AbortController(),
): Promise<T> {
  let failure: { error: unknown } | undefined;
  const running = (loads as ReadonlyArray<(signal: AbortSignal) => Promise<unknown>>).map((load) =>
    load(controller.signal).catch((error: unknown) => {
      if (!failure) {
        failure = { error };
        controller.abort(error);
      }
      throw error;
    }),
  );
  const settled = await Promise.allSettled(running);
  if (failure) throw failure.error;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
