/**
 * A locale that `Intl` and `toLocaleString` accept, from the first candidate that yields one. Hosts
 * hand over tags that are not BCP 47: Chromium under a POSIX locale (LANG=C or C.UTF-8) reports
 * `en-US@posix`, and platform locales come as `de_DE`; every date and number formatter throws a
 * RangeError on those, so the modifier is dropped and underscores become hyphens, else `en-US`.
 */
export function usableLocale(...candidates: Array<string | null | undefined>): string {
  for (const candidate of candidates) {
    if (!candidate) continue;
    const withoutModifier = candidate.split('@')[0]!.split('.')[0]!.replace(/_/g, '-');
    for (const tag of [candidate, withoutModifier]) {
      try {
        const [canonical] = Intl.getCanonicalLocales(tag);
        if (canonical) return canonical;
      } catch {
        // not a language tag: try the next form
      }
    }
  }
  return 'en-US';
}
