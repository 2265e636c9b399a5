/**
 * Reading Graph values the way Intune writes them. Decoders here accept what the service may send
 * (unknown enum strings, "never" timestamps, numbers for enum members) and never throw on it.
 */
import { plural } from '../text/words.js';

export const DAY_MS = 86_400_000;

/**
 * A timestamp, or null for "never": Intune's non-nullable date fields hold `0001-01-01T00:00:00Z`
 * when the event never happened.
 */
export function graphTimestamp(value: unknown): Date | null {
  if (typeof value !== 'string' || value === '' || value.startsWith('0001-01-01')) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** The ISO form of a timestamp for a table cell, or null for "never". */
export function isoOrNull(value: unknown): string | null {
  return graphTimestamp(value)?.toISOString() ?? null;
}

export function ageInDays(then: Date, now: Date): number {
  return (now.getTime() - then.getTime()) / DAY_MS;
}

/** "3 days", "1 day", "5 hours": how long ago, for a reason line. */
export function describeAge(then: Date, now: Date): string {
  const days = ageInDays(then, now);
  if (days >= 1) {
    const whole = Math.floor(days);
    return `${plural(whole, 'day')} ago`;
  }
  const hours = Math.max(0, Math.floor(days * 24));
  return `${plural(hours, 'hour')} ago`;
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The id Intune gives a device that is not registered in Entra ID. */
export const ZERO_GUID = '00000000-0000-0000-0000-000000000000';

/** A lower-case Entra id, or null when the device is not registered (absent, empty or all zeros). */
export function entraDeviceId(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const id = value.trim().toLowerCase();
  return id === '' || id === ZERO_GUID ? null : id;
}

/** Singletons are top-level objects; tolerate a `{"value": {...}}` wrapper as well. */
export function unwrapSingleton<T>(body: unknown): T | null {
  if (typeof body !== 'object' || body === null) return null;
  const value = (body as { value?: unknown }).value;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as T;
  return body as T;
}

// One collator for every sort: `localeCompare` with options builds one per call, which costs
// seconds when 75,000 device names are sorted.
const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Case-insensitive, number-aware order for names ("PC-9" before "PC-10"). */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b);
}

/**
 * A Graph timestamp string kept as Graph sent it, or null for "never"; cheaper than `graphTimestamp`
 * for fields that are only displayed and compared with their own kind.
 */
export function timestampText(value: unknown): string | null {
  return typeof value === 'string' && value !== '' && !value.startsWith('0001-01-01') ? value : null;
}

// Counts in words are made in one place (src/core/text/words.ts); the reports import `plural` from here too.
export { plural };

/** "a", "a and b", "a, b and c": a list as a sentence names it. */
export function joinAnd(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Bidirectional formatting characters: embeddings and overrides (U+202A–202E), isolates
 * (U+2066–2069) and the marks (U+200E, U+200F, U+061C). In a device name they make a line read
 * otherwise than it is ("Trojan Source", CVE-2021-42574).
 */
const BIDI_FORMATTING = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * Names come from the tenant: a device called "\u001b]0;…" must not drive an admin's terminal,
 * nor garble a card. Control characters (C0, DEL, C1) other than whitespace are dropped, and so is
 * bidirectional formatting.
 */
export function printable(text: string): string {
  let result = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    const control = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    if (!control || char === '\t' || char === '\n' || char === '\r') result += char;
  }
  return result.replace(BIDI_FORMATTING, '');
}

/**
 * Tenant text as one line, for a terminal, a card or a CSV cell: printable, with every run of line
 * breaks and tabs (CR, LF, VT, FF, NEL, U+2028, U+2029) as one space, so that a name can neither
 * start a line of its own nor send the cursor back over one.
 */
export function singleLine(text: string): string {
  return printable(text.replace(/[\t\n\v\f\r\u0085\u2028\u2029]+/g, ' '));
}
