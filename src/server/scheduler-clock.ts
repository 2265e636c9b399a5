/**
 * The clock that scheduled posts read, and how often the server looks for a slot that is due. A
 * module of its own, so that a test can run the built server on a clock it sets: it replaces this
 * one module when it starts the process (test/support/fake-clock/), and nothing else in the server
 * knows.
 */
export const schedulerClock = {
  now: (): Date => new Date(),
  /** A slot is posted within this long of its time. */
  tickMs: 30_000,
};
