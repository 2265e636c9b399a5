import { describe, expect, it } from 'vitest';
import { usableLocale } from '../../src/tab/host/locale.js';

describe('the locale the tab formats with', () => {
  it('keeps a BCP 47 tag, canonicalised', () => {
    expect(usableLocale('de-DE')).toBe('de-DE');
    expect(usableLocale('en-gb')).toBe('en-GB');
  });

  it('repairs what hosts hand over that Intl refuses: a POSIX modifier, a platform locale', () => {
    expect(() => new Date(0).toLocaleString('en-US@posix')).toThrow(RangeError);
    expect(usableLocale('en-US@posix')).toBe('en-US');
    expect(usableLocale('de_DE.UTF-8')).toBe('de-DE');
    expect(() => new Date(0).toLocaleString(usableLocale('en-US@posix'))).not.toThrow();
  });

  it('takes the next candidate, then en-US, when nothing can be repaired', () => {
    expect(usableLocale('', 'fr-CA')).toBe('fr-CA');
    expect(usableLocale(undefined, '@@')).toBe('en-US');
    expect(usableLocale()).toBe('en-US');
  });
});
