/**
 * Report 4's devices in name order, built while their pages arrive (docs/performance.md, "Report
 * 4"): each page is sorted as it comes, and sorted runs of about the same size are merged a slice at
 * a time with every page after, so that what is left after the last page is little more than one
 * pass over the devices rather than a sort of every name. The order is exactly the one a stable sort
 * by `compareText` gives: by name, and devices whose names compare equal in the order they arrived.
 * Pure: no I/O, no clock.
 */

import { compareText } from '../graph-values.js';

/**
 * Merging done with each page, in comparisons per device of the page: a page's share holds the
 * event loop about as long as parsing it does, while the pages of other lists wait for their next
 * request. Enough for the merges of a few hundred pages to keep up; beyond, `indices` does the rest.
 */
const MERGE_STEPS_PER_DEVICE = 12;

/** A merge of two neighbouring runs under way, `left` of earlier devices than `right`. */
interface Merge {
  left: readonly number[];
  right: readonly number[];
  out: number[];
  l: number;
  r: number;
}

export class DeviceNameOrder {
  private readonly names: string[] = [];
  /** Sorted runs of device indices, each of later devices than the one before it; a merge under way stands in place of its two. */
  private runs: Array<number[] | Merge> = [];
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
    this.mergeFor(names.length * MERGE_STEPS_PER_DEVICE);
  }

  /** Every device's index, in name order. */
  indices(): readonly number[] {
    if (this.merged) return this.merged;
    // What is still under way first; then, the runs being larger the earlier they are (a binary
    // counter's), each folded into the later ones from the smallest up, about one pass in all.
    const runs = this.runs.map((run) => (Array.isArray(run) ? run : this.step(run, Infinity)!));
    let order: number[] = runs.at(-1) ?? [];
    for (let index = runs.length - 2; index >= 0; index -= 1) order = this.step(this.startMerge(runs[index]!, order), Infinity)!;
    this.runs = runs.length > 0 ? [order] : [];
    this.merged = order;
    return this.merged;
  }

  /**
   * Up to `budget` comparisons of merging: the merge under way advanced, and when none is, two
   * neighbouring runs of about the same size started (the later ones first, as a binary counter
   * carries), until the budget is spent or no two runs are alike.
   */
  private mergeFor(budget: number): void {
    let left = budget;
    while (left > 0) {
      let at = this.runs.findIndex((run) => !Array.isArray(run));
      if (at < 0) {
        at = this.alikeNeighbours();
        if (at < 0) return;
        this.runs.splice(at, 2, this.startMerge(this.runs[at] as number[], this.runs[at + 1] as number[]));
      }
      const merge = this.runs[at] as Merge;
      const before = merge.l + merge.r;
      const done = this.step(merge, left);
      left -= merge.l + merge.r - before;
      if (done) this.runs[at] = done;
    }
  }

  /** The later of two neighbouring finished runs whose sizes are within a factor of two, or -1. */
  private alikeNeighbours(): number {
    for (let index = this.runs.length - 2; index >= 0; index -= 1) {
      const left = this.runs[index]!;
      const right = this.runs[index + 1]!;
      if (Array.isArray(left) && Array.isArray(right) && left.length <= right.length * 2) return index;
    }
    return -1;
  }

  private startMerge(left: readonly number[], right: readonly number[]): Merge {
    return { left, right, out: [], l: 0, r: 0 };
  }

  /** Advances a merge by at most `budget` comparisons; its run when finished. */
  private step(merge: Merge, budget: number): number[] | undefined {
    const { left, right, out } = merge;
    let { l, r } = merge;
    let spent = 0;
    while (l < left.length && r < right.length && spent < budget) {
      // On equal names the earlier device (in `left`) goes first.
      if (this.compare(left[l]!, right[r]!) <= 0) out.push(left[l++]!);
      else out.push(right[r++]!);
      spent += 1;
    }
    merge.l = l;
    merge.r = r;
    if (l < left.length && r < right.length) return undefined;
    while (l < left.length) out.push(left[l++]!);
    while (r < right.length) out.push(right[r++]!);
    merge.l = l;
    merge.r = r;
    return out;
  }

  /** By name; equal names in the order they arrived, as a stable sort keeps them. */
  private readonly compare = (a: number, b: number): number => compareText(this.names[a]!, this.names[b]!) || a - b;
}
