/**
 * The axis for values up to `largest`: a round step (1, 2 or 5 times a power of ten) giving at
 * most six intervals, and the end of the axis a whole number of steps past `largest`, with room
 * for the figure printed after the longest bar.
 */
export function chartAxis(largest: number): { end: number; ticks: number[] } {
  const reach = Math.max(largest * 1.12, 1);
  const magnitude = 10 ** Math.floor(Math.log10(reach / 6));
  const step = [1, 2, 5, 10].map((factor) => factor * magnitude).find((candidate) => reach / candidate <= 6) ?? 10 * magnitude;
  const steps = Math.ceil(reach / step);
  // toPrecision drops the float noise of a fractional step (0.2 × 3 = 0.6000000000000001).
  const ticks = Array.from({ length: steps + 1 }, (_, index) => Number((index * step).toPrecision(12)));
  return { end: ticks.at(-1)!, ticks };
}
