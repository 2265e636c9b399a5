/**
 * The one place that turns counts into words, for the tab, the bot's cards, the command line and
 * the reports' own texts: "1 finding", "2 findings", "1,234 rows". English only: the product's
 * user-visible text is English (CONTRIBUTING.md, plain English).
 */

const NUMBER = new Intl.NumberFormat('en-US');

/** A count as every surface writes it: 8,235, not 8235. */
export function formatCount(count: number): string {
  return NUMBER.format(count);
}

/** The noun for a count: `one` for exactly 1, else `many` ("findings" for 0 and for 2). */
export function nounFor(count: number, one: string, many = `${one}s`): string {
  return count === 1 ? one : many;
}

/**
 * "1 finding", "0 findings", "1,234 rows": the count, grouped, then its noun. The tab passes its
 * reader's number format (`Intl.NumberFormat(locale)`); the bot and the command line write en-US.
 */
export function countOf(count: number, one: string, many = `${one}s`, format: Pick<Intl.NumberFormat, 'format'> = NUMBER): string {
  return `${format.format(count)} ${nounFor(count, one, many)}`;
}

/** "1 day", "3 days", "2 crashes": as `countOf`, without grouping (small counts inside a sentence). */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${nounFor(count, noun, pluralNoun)}`;
}

/** A verb that agrees with its count: `agree(1, 'is', 'are')` is "is". */
export function agree(count: number, one: string, many: string): string {
  return count === 1 ? one : many;
}

/** A finding kind's words: `label` counts many ("Devices with blue screens"), `one` counts one where it differs. */
export interface KindWords {
  label: string;
  one?: string | undefined;
}

/** A kind's label for a count of its findings: "Device with blue screens" for 1, "Devices with blue screens" for 2. */
export function kindLabel(kind: KindWords, count: number): string {
  return count === 1 && kind.one ? kind.one : kind.label;
}

/** "1 device with blue screens", "2 Apple VPP tokens not working": a kind counted inside a sentence. */
export function countKind(kind: KindWords, count: number): string {
  return `${formatCount(count)} ${inSentence(kindLabel(kind, count))}`;
}

/**
 * Names that keep their capitals inside a sentence: products and their parts as Microsoft writes
 * them ("BitLocker", "LAPS", "Intune Connector for Active Directory"), never "bitlocker".
 */
const PROPER_WORDS = new Set(['Apple', 'Android', 'Azure', 'BitLocker', 'Entra', 'Intune', 'LAPS', 'Microsoft', 'Teams', 'Windows', 'ASR', 'ADE', 'VPP', 'MDM', 'NDES']);

/**
 * A label that starts a line ("Devices without an escrowed BitLocker key") as it reads inside a
 * sentence ("devices without an escrowed BitLocker key"): only a first word that is an ordinary word
 * loses its capital; product names and acronyms keep theirs, and so does every later word.
 */
export function inSentence(label: string): string {
  const first = label.split(/[\s-]/, 1)[0] ?? '';
  if (PROPER_WORDS.has(first) || first.length < 2 || first !== `${first[0]}${first.slice(1).toLowerCase()}`) return label;
  return `${label[0]!.toLowerCase()}${label.slice(1)}`;
}
