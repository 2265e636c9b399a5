// The suite on another day: with DMHEALTH_TEST_CLOCK_SHIFT_HOURS set (a whole number, negative for
// the past), every Node process of the run reads the wall clock that many hours away, through
// NODE_OPTIONS="--import <this file>" (the vitest workers, the servers, the CLI, Azurite and the
// Playground alike), and test/support/chromium.ts moves the pages' clock by as much. A test that
// reads today's date or time of day instead of a clock it holds fails then (CONTRIBUTING.md, on the
// real clock). Timers, `performance` and TLS keep the real time: the shift moves only what `Date` tells.
const hours = Number(process.env.DMHEALTH_TEST_CLOCK_SHIFT_HOURS ?? '0');
if (!Number.isInteger(hours)) throw new Error(`DMHEALTH_TEST_CLOCK_SHIFT_HOURS must be a whole number of hours, not "${process.env.DMHEALTH_TEST_CLOCK_SHIFT_HOURS}"`);
/** The shift this run asks for, in milliseconds: 0 for none. */
export const CLOCK_SHIFT_MS = hours * 3_600_000;
if (CLOCK_SHIFT_MS !== 0) shiftDate(globalThis, CLOCK_SHIFT_MS);

/** Replaces `target.Date` with one whose present is `shift` milliseconds away; dates given outright are as given. */
export function shiftDate(target, shift) {
  const RealDate = target.Date;
  if (RealDate.shiftedBy !== undefined) return;
  function ShiftedDate(...args) {
    if (!new.target) return new RealDate(RealDate.now() + shift).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [RealDate.now() + shift] : args, new.target);
  }
  ShiftedDate.prototype = RealDate.prototype;
  // Not enumerable, as Date's own are: a page's fake clock (Playwright's `page.clock`) copies the
  // enumerable properties of the Date it wraps onto its own, and a copied `now` would replace the
  // time the test holds with the shifted real one.
  const statics = { now: () => RealDate.now() + shift, parse: RealDate.parse, UTC: RealDate.UTC, shiftedBy: shift };
  for (const [name, value] of Object.entries(statics)) Object.defineProperty(ShiftedDate, name, { value, writable: true, configurable: true });
  Object.defineProperty(RealDate.prototype, 'constructor', { value: ShiftedDate, writable: true, configurable: true });
  target.Date = ShiftedDate;
}
