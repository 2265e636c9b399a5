import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../src/core/reports/registry.js';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** A Microsoft page cited: Learn, where Intune's and Graph's documentation lives. */
const MICROSOFT_PAGE = /learn\.microsoft\.com\//;

/**
 * What a report's RULES.md lacks for its finding kinds: each kind must be named (in backticks) in a
 * part of the file, under one heading, that cites a Microsoft page. A kind named nowhere, or only
 * where no page is cited, is listed with why.
 */
function missingRules(rules: string, kinds: readonly string[]): string[] {
  const parts = rules.split(/\n(?=#{1,6} )/);
  return kinds.flatMap((kind) => {
    const naming = parts.filter((part) => part.includes(`\`${kind}\``));
    if (naming.length === 0) return [`${kind}: no rule names it`];
    return naming.some((part) => MICROSOFT_PAGE.test(part)) ? [] : [`${kind}: its rule cites no Microsoft page`];
  });
}

describe("each report's rules, beside its code", () => {
  it('finds a kind no rule names, and one whose rule cites no Microsoft page', () => {
    const rules = [
      '# Report',
      '## Cited',
      '`cited` when a group is gone (learn.microsoft.com/mem/intune/apps/apps-deploy).',
      '## Not cited',
      '`uncited` when a group is gone.',
    ].join('\n');
    expect(missingRules(rules, ['cited', 'uncited', 'unnamed'])).toEqual(['uncited: its rule cites no Microsoft page', 'unnamed: no rule names it']);
  });

  it.each(REPORTS.definitions.map((definition) => [definition.id, Object.keys(definition.findingKinds)] as const))(
    '%s: a RULES.md in its folder names every finding kind it makes, each with a Microsoft page',
    (id, kinds) => {
      const rules = readFileSync(join(REPO_ROOT, 'src', 'core', 'reports', id, 'RULES.md'), 'utf8');
      expect(missingRules(rules, kinds)).toEqual([]);
    },
  );

  it("docs/finding-rules.md is their index: it links every report's RULES.md, and \"what applies\"' and the viewer scope's, and each link opens a file", () => {
    const index = readFileSync(join(REPO_ROOT, 'docs', 'finding-rules.md'), 'utf8');
    const linked = [...index.matchAll(/\]\(\.\.\/([^)]+\/RULES\.md)\)/g)].map((match) => match[1]!);
    expect(linked).toEqual(expect.arrayContaining([...REPORTS.ids.map((id) => `src/core/reports/${id}/RULES.md`), 'src/core/applies/RULES.md', 'src/core/viewer-scope/RULES.md']));
    expect(linked.filter((path) => !existsSync(join(REPO_ROOT, path)))).toEqual([]);
  });
});
