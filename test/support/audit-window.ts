import { expect } from 'vitest';

/**
 * Asserts that the `$filter`s of an audit log read's first pages tile one window: the first slice
 * starts at `from` (the filter's literal), each ends where the next starts, and the last is
 * open-ended, as the window is (read-audit-log.ts, `readAuditWindow`). Returns how many slices.
 */
export function expectWindowTiled(filters: ReadonlyArray<string | null>, from: string): number {
  const slices = filters.map((filter) => {
    const match = /^activityDateTime ge (\S+)(?: and activityDateTime lt (\S+))?$/.exec(filter ?? '');
    expect(match, `an audit window filter: ${filter}`).not.toBeNull();
    return { from: match![1]!, to: match![2] };
  });
  slices.sort((a, b) => a.from.localeCompare(b.from));
  expect(slices[0]?.from).toBe(from);
  for (let index = 1; index < slices.length; index += 1) expect(slices[index - 1]!.to).toBe(slices[index]!.from);
  expect(slices.at(-1)?.to).toBeUndefined();
  return slices.length;
}
