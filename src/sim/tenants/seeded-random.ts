/**
 * A seeded source of numbers in [0, 1) whose position can be read: `seededRandom(random.position())`
 * draws the same numbers from there on, so a tenant can make a record again instead of keeping it.
 */
export interface SeededRandom {
  (): number;
  position(): number;
  /** Moves on as `count` draws would, without making them: a part of a record that is not wanted. */
  skip(count: number): void;
}

/** What one draw adds to mulberry32's state: the state after n draws is the seed plus n times this. */
const STEP = 0x6d2b79f5;

/** mulberry32: a small, fast PRNG, so a seed always builds the same tenant. Not for secrets. */
export function seededRandom(seed: number): SeededRandom {
  let state = seed >>> 0;
  const draw = () => {
    state = (state + STEP) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.assign(draw, {
    position: () => state,
    skip: (count: number) => {
      state = (state + Math.imul(count, STEP)) >>> 0;
    },
  });
}

/** The draws one `seededGuid` makes: a digit for each of 32, and the variant digit again. */
export const GUID_DRAWS = 33;

const HEX_CODES = Array.from('0123456789abcdef', (digit) => digit.charCodeAt(0));
const DASH_CODE = '-'.charCodeAt(0);
/** The 36 character codes of the GUID being made: one array, reused (the tenant makes millions). */
const guidCodes = new Array<number>(36);

/**
 * A version-4-shaped GUID drawn from the seeded source, so ids are stable across runs: 32 hex
 * digits drawn, the version digit set to 4 and the variant digit drawn again from 8 to b. Made from
 * character codes in one call, which gives one flat string of 36 characters: pieces joined by a
 * template are kept by V8 as a tree of partial strings until first read, several times the memory,
 * and the large tenant makes several GUIDs each time it makes a device again.
 */
export function seededGuid(random: () => number): string {
  let at = 0;
  for (let digit = 0; digit < 32; digit += 1) {
    if (digit === 8 || digit === 12 || digit === 16 || digit === 20) guidCodes[at++] = DASH_CODE;
    guidCodes[at++] = HEX_CODES[Math.floor(random() * 16)]!;
  }
  // The version digit (the 13th) and the variant digit (the 17th), after two and three dashes.
  guidCodes[14] = HEX_CODES[4]!;
  guidCodes[19] = HEX_CODES[Math.floor(random() * 4) + 8]!;
  return String.fromCharCode(...guidCodes);
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}
