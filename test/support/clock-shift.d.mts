/** Replaces `target.Date` with one whose present is `shift` milliseconds away (clock-shift.mjs). */
export function shiftDate(target: typeof globalThis, shift: number): void;
/** The shift this run asks for (DMHEALTH_TEST_CLOCK_SHIFT_HOURS), in milliseconds: 0 for none. */
export const CLOCK_SHIFT_MS: number;
