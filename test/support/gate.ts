import type { StateStore } from '../../src/store/state-store.js';

/** A promise and the function that settles it: to hold a lock, a request or a step until a test lets go. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * Takes the lock `name` in `store`, as another instance would, and holds it until the returned
 * release is called (which resolves once the lock is given back); resolves once the lock is held.
 */
export async function holdLock(store: Pick<StateStore, 'withLock'>, name: string): Promise<() => Promise<void>> {
  const held = gate();
  const released = gate();
  const holder = store.withLock(name, async () => {
    held.open();
    await released.opened;
  });
  await Promise.race([
    held.opened,
    holder.then((outcome) => {
      if (!outcome.ok) throw new Error(`the test could not take the lock ${name}`);
    }),
  ]);
  return async () => {
    released.open();
    await holder;
  };
}
