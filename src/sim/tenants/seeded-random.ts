/**
 * A seeded source of numbers in [0, 1) whose position can be read: `seededRandom(random.position())`
 * draws the same numbers from there on, so a tenant can make a record again instead of keeping it.
 */
export interface SeededRandom {
  (): number;
  position(): number;
}

/** mulberry32: a small, fast PRNG, so a seed always builds the same tenant. Not for secrets. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const draw = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.assign(draw, { position: () => state });
}

/** A version-4-shaped GUID drawn from the seeded source, so ids are stable across runs. */
export function seededGuid(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16));
  hex[12] = '4';
  hex[16] = ((Math.floor(random() * 4) + 8) as number).toString(16);
  // One join makes one flat string of 36 characters: pieces joined by a template are kept by V8 as a
  // tree of partial strings until first read, several times the memory, which a tenant of 500,000
  // devices (millions of ids) pays for in full.
  hex.splice(20, 0, '-');
  hex.splice(16, 0, '-');
  hex.splice(12, 0, '-');
  hex.splice(8, 0, '-');
  return hex.join('');
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
