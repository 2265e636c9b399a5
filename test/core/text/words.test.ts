import { describe, expect, it } from 'vitest';
import { agree, countKind, countOf, formatCount, inSentence, kindLabel, nounFor, plural } from '../../../src/core/text/words.js';
import { REPORTS } from '../../../src/core/reports/registry.js';
import { countFindingsByKind } from '../../../src/core/findings/finding-kinds.js';

describe('counts in words', () => {
  it('says one thing in the singular and none or many in the plural, with the count grouped', () => {
    expect(countOf(1, 'finding')).toBe('1 finding');
    expect(countOf(0, 'finding')).toBe('0 findings');
    expect(countOf(2, 'finding')).toBe('2 findings');
    expect(countOf(15_570, 'row')).toBe('15,570 rows');
    expect(countOf(1, 'policy', 'policies')).toBe('1 policy');
    expect(countOf(3, 'policy', 'policies')).toBe('3 policies');
    expect(countOf(1_234, 'record', 'records', new Intl.NumberFormat('de-DE'))).toBe('1.234 records');
    expect(formatCount(100_000)).toBe('100,000');
    expect(nounFor(1, 'crash', 'crashes')).toBe('crash');
    expect(plural(2, 'crash', 'crashes')).toBe('2 crashes');
    expect(plural(1, 'day')).toBe('1 day');
    expect(agree(1, 'is', 'are')).toBe('is');
    expect(agree(4, 'is', 'are')).toBe('are');
  });

  it('names a finding kind in the singular for one finding, and in the plural otherwise', () => {
    const kind = { label: 'Policies switching a firewall profile off', one: 'Policy switching a firewall profile off' };
    expect(kindLabel(kind, 1)).toBe('Policy switching a firewall profile off');
    expect(kindLabel(kind, 2)).toBe('Policies switching a firewall profile off');
    expect(kindLabel({ label: 'Assigned with exclusions only' }, 1)).toBe('Assigned with exclusions only');
    expect(countKind({ label: 'High-impact areas without approval', one: 'High-impact area without approval' }, 1)).toBe('1 high-impact area without approval');
  });

  it('keeps product names and acronyms as Microsoft writes them inside a sentence', () => {
    expect(inSentence('Devices without an escrowed BitLocker key')).toBe('devices without an escrowed BitLocker key');
    expect(inSentence('Devices without an escrowed LAPS password')).toBe('devices without an escrowed LAPS password');
    expect(inSentence('Apple VPP tokens not working')).toBe('Apple VPP tokens not working');
    expect(inSentence('Intune Connectors for Active Directory not working')).toBe('Intune Connectors for Active Directory not working');
    expect(inSentence('BitLocker keys')).toBe('BitLocker keys');
    expect(inSentence('LAPS passwords')).toBe('LAPS passwords');
    expect(inSentence('ASR rules in audit')).toBe('ASR rules in audit');
  });

  it('gives every finding kind whose label counts many a label for one, so no surface writes "1 policies"', () => {
    for (const definition of REPORTS.definitions) {
      for (const [kind, entry] of Object.entries(definition.findingKinds)) {
        const [first] = entry.label.split(' ');
        // A label led by a plural noun ("Devices …", "Apple VPP tokens …") needs its singular.
        const leadsWithPlural = /(?:ies|[^s]s)$/.test(first!) || /\b(?:tokens|areas|Connectors|certificates|baselines|applications)\b/.test(entry.label);
        if (leadsWithPlural) expect(entry.one, `${definition.id} ${kind}`).toBeTruthy();
        if (entry.one) expect(entry.one, `${definition.id} ${kind}`).not.toBe(entry.label);
      }
      // Counted with one finding of each kind, no line says "1 <plural>".
      const kinds = Object.keys(definition.findingKinds).map((kind) => ({ kind }));
      for (const count of countFindingsByKind(kinds, definition.findingKinds)) {
        expect(countKind(count, 1)).not.toMatch(/^1 (?:policies|devices|high-impact areas|configuration areas|connectors|outdated security baselines|unreliable applications)\b/i);
      }
    }
  });
});
