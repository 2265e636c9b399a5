import { GRAPH_BUDGETS, RequestBudget } from '../../src/graph/request-budget.js';

/**
 * The client's own pacing (`GRAPH_BUDGETS`) on a clock that moves only when the pacing waits, and
 * each wait it made. Give the same clock to the simulator's throttling windows (`throttleClock`), and
 * a test proves what waited and whether Graph would have throttled it, never how fast the machine is.
 */
export function pacedBudget(clock: { now: number }): { budget: RequestBudget; slept: number[] } {
  const slept: number[] = [];
  const budget = new RequestBudget(
    GRAPH_BUDGETS,
    () => clock.now,
    async (ms) => {
      slept.push(ms);
      clock.now += ms;
    },
  );
  return { budget, slept };
}
