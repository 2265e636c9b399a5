import { describe, expect, it } from 'vitest';
import { chartAxis } from '../../src/tab/reports/chart-axis.js';

describe('a bar chart’s axis', () => {
  it('ends a round step past the largest value, leaving room for its figure', () => {
    // Report 6's demo: the slowest model at 105.2 s against the 120 s threshold.
    expect(chartAxis(120)).toEqual({ end: 150, ticks: [0, 50, 100, 150] });
    expect(chartAxis(48)).toEqual({ end: 60, ticks: [0, 10, 20, 30, 40, 50, 60] });
    expect(chartAxis(105.2)).toEqual({ end: 120, ticks: [0, 20, 40, 60, 80, 100, 120] });
    expect(chartAxis(3)).toEqual({ end: 4, ticks: [0, 1, 2, 3, 4] });
    expect(chartAxis(0.5)).toEqual({ end: 1, ticks: [0, 0.2, 0.4, 0.6, 0.8, 1] });
  });

  it('never has more than six intervals, and always room past the largest value', () => {
    for (const largest of [0, 0.4, 1, 7, 9.9, 13, 99, 101, 999, 12_345, 1e6]) {
      const { end, ticks } = chartAxis(largest);
      expect(ticks.length - 1, String(largest)).toBeLessThanOrEqual(6);
      expect(end, String(largest)).toBeGreaterThan(largest);
      expect(ticks.at(-1)).toBe(end);
    }
  });
});
