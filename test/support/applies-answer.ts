import type { AppliesResult } from '../../src/core/applies/applies-result.js';

/** The answer of a question that found its subject; any other outcome fails the test with its words. */
export function found(result: AppliesResult) {
  if (result.kind !== 'found') throw new Error(`expected an answer, got ${result.kind}: ${'words' in result ? result.words : ''}`);
  return result.answer;
}

/** The answer's entry for the object called `name`, whatever its type. */
export const entry = (result: AppliesResult, name: string) =>
  found(result)
    .groups.flatMap((group) => group.entries)
    .find((item) => item.name === name);
