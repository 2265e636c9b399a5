import { describe, expect, it } from 'vitest';
import type { ConflictSide } from '../../src/core/reports/setting-conflicts/sides.js';
import { notDecidingWords } from '../../src/tab/reports/conflict-sides-words.js';

const side = (name: string, value: string | null, decides: boolean): ConflictSide => ({ policyId: name, name, link: null, value, secret: value === null, decides });

describe('why a policy beside the pair a verdict is about is not one of them', () => {
  it('names the deciding policy that sets the same value', () => {
    const policies = [side('A', 'false', true), side('B', 'true', false), side('C', 'true', true)];
    expect(notDecidingWords(policies[1]!, policies)).toBe('Sets the same value as “C”, one of the two the verdict is about');
  });

  it('claims no more than that the verdict is about one pair where no deciding policy sets its value', () => {
    const policies = [side('A', '1', true), side('B', '2', true), side('C', '3', false)];
    expect(notDecidingWords(policies[2]!, policies)).toBe('Also sets it: the verdict is about one pair, not each pair this policy makes with the others');
  });

  it('never calls two secrets the same value, since neither value is known', () => {
    const policies = [side('A', null, true), side('B', null, false), side('C', '1', true)];
    expect(notDecidingWords(policies[1]!, policies)).toBe('Also sets it: the verdict is about one pair, not each pair this policy makes with the others');
  });
});
