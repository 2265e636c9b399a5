import type { ConflictSide } from '../../core/reports/setting-conflicts/sides.js';

/**
 * Why a policy beside the two the verdict is about is not one of them, from what the pane holds and
 * nothing more. The verdict is decided by one pair (docs/finding-rules.md, "Setting conflicts", "Its
 * policies side by side"): a policy that sets the same value as one of the two is named with it, since
 * it differs from the other only as that one does; of any other, the row proves no more than that the
 * verdict did not need it. Whether it reaches the same devices is not in the row, so it is not said.
 */
export function notDecidingWords(side: ConflictSide, policies: readonly ConflictSide[]): string {
  const twin = side.secret ? undefined : policies.find((other) => other.decides && !other.secret && other.value === side.value);
  return twin
    ? `Sets the same value as “${twin.name}”, one of the two the verdict is about`
    : 'Also sets it: the verdict is about one pair, not each pair this policy makes with the others';
}
