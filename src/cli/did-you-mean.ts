/**
 * "Did you mean": the known word a mistyped one is nearest to, by edit distance (insertions,
 * deletions, substitutions and swaps of two neighbouring letters each count one), when it is near
 * enough to be a typo: at most two edits, and fewer than half the word's letters, so that a short
 * word is not taken for any other short word.
 */
export function didYouMean(typed: string, known: readonly string[]): string | null {
  const word = typed.toLowerCase();
  let best: { name: string; distance: number } | null = null;
  for (const name of known) {
    const distance = editDistance(word, name.toLowerCase());
    if (distance <= 2 && distance * 2 < Math.max(word.length, name.length) && (!best || distance < best.distance)) best = { name, distance };
  }
  return best && best.distance > 0 ? best.name : null;
}

/** Optimal string alignment distance: Levenshtein's, with a swap of two neighbouring letters as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}
