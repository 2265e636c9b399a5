/**
 * Report 4's devices in name order, built while their pages arrive (docs/performance.md, "Report
 * 4"): each page is sorted as it comes, and runs of about the same size are merged while they are
 * small, so that what is left after the last page is a few merges rather than a sort of every name.
 * The order is exactly the one a stable sort by `compareText` gives: by name, and devices whose
 * names compare equal in the order they arrived. Pure: no I/O, no clock.
 */

import { compareText } from '../graph-values.js';

/**
 * Runs are merged while they arrive only up to this many devices: a merge holds the event loop for
 * as long as it runs, and a page of another list may be waiting for its next request meanwhile.
 * Larger runs wait for `indices`, which merges them all at once.
 */
const EAGER_MERGE_LIMIT = 16_384;

export class DeviceNameOrder {
  private readonly names: string[] = [];
  /** Sorted runs of device indices, each of later devices than the one before it. */
  private runs: number[][] = [];
  private merged: readonly number[] | undefined;

  /** The order of `names` as a stable sort by `compareText` would give it. */
  static of(names: readonly string[]): DeviceNameOrder {
    const order = new DeviceNameOrder();
    order.add(names);
    return order;
  }

  /** How many devices it orders. */
  get size(): number {
    return this.names.length;
  }

  /** The next devices' names, in the order they arrived (one page, or all of them). */
  add(names: readonly string[]): void {
    if (names.length === 0) return;
    this.merged = undefined;
    const start = this.names.length;
    for (const name of names) this.names.push(name);
    const run = Array.from({ length: names.length }, (_, offset) => start + offset);
    run.sort(this.compare);
    this.runs.push(run);
    // Like a binary counter: two neighbouring runs of about the same size become one, while small.
    for (;;) {
      const right = this.runs.at(-1)!;
      const left = this.runs.at(-2);
      if (!left || left.length > right.length * 2 || left.length + right.length > EAGER_MERGE_LIMIT) break;
      this.runs.splice(-2, 2, this.merge(left, right));
    }
  }

  /** Every device's index, in name order. */
  indices(): readonly number[] {
    if (this.merged) return this.merged;
    let runs = this.runs;
    // Neighbours merged pairwise, round after round: each device is looked at once a round.
    while (runs.length > 1) {
      const next: number[][] = [];
      for (let index = 0; index < runs.length; index += 2) next.push(index + 1 < runs.length ? this.merge(runs[index]!, runs[index + 1]!) : runs[index]!);
      runs = next;
    }
    this.runs = runs;
    this.merged = runs[0] ?? [];
    return this.merged;
  }

  /** By name; equal names in the order they arrived, as a stable sort keeps them. */
  private readonly compare = (a: number, b: number): number => compareText(this.names[a]!, this.names[b]!) || a - b;

  /** Two sorted runs, `left` of earlier devices than `right`, as one. */
  private merge(left: readonly number[], right: readonly number[]): number[] {
    const out = new Array<number>(left.length + right.length);
    let l = 0;
    let r = 0;
    let o = 0;
    while (l < left.length && r < right.length) {
      // On equal names the earlier device (in `left`) goes first.
      if (this.compare(left[l]!, right[r]!) <= 0) out[o++] = left[l++]!;
      else out[o++] = right[r++]!;
    }
    while (l < left.length) out[o++] = left[l++]!;
    while (r < right.length) out[o++] = right[r++]!;
    return out;
  }
}
