/**
 * The registry turns each finding draft a report derives into a finding: the draft's properties in
 * their order, never its rule key, and its fingerprint (made with the rule key) last. A draft without
 * a rule key takes a faster path than one with it (docs/performance.md); both must give this.
 */
import { describe, expect, it } from 'vitest';
import { sha256Hex, findingFingerprint } from '../../../src/core/findings/fingerprint.js';
import { nodeSha256Hex } from '../../../src/app/node-digest.js';
import type { GraphReader } from '../../../src/core/graph/graph-reader.js';
import { escrowGapsReport } from '../../../src/core/reports/escrow-gaps/definition.js';
import { ReportRegistry } from '../../../src/core/reports/registry.js';
import type { FindingDraft, ReportDefinition } from '../../../src/core/reports/report-model.js';

const lastChange = { at: '2026-11-20T10:00:00Z', by: 'admin@contoso.com', activity: 'Patch DeviceConfiguration' };
const drafts: FindingDraft[] = [
  { subjectId: 'D-1', subjectName: 'PC-1', kind: 'missing-recovery-key', detail: 'No key.' },
  { kind: 'missing-laps-password', subjectId: 'd-2', subjectName: 'PC-2', detail: 'No password.', ruleKey: 'rule-a' },
  { kind: 'missing-laps-password', subjectId: 'd-3', subjectName: 'PC-3', detail: 'No password.', ruleKey: '', lastChange },
  { kind: 'missing-recovery-key', subjectId: 'd-4', subjectName: 'PC-4', detail: 'No key.', lastChange },
];

/** Report 4 as the registry holds it, its load and derive replaced so that it derives exactly these drafts. */
const registry = new ReportRegistry([
  {
    ...escrowGapsReport,
    load: () => Promise.resolve({}),
    derive: () => ({ state: 'loaded', notice: null, columns: [], rows: [], findings: drafts.map((draft) => ({ ...draft })) }),
  } as unknown as ReportDefinition<unknown>,
]);

describe("the registry's findings", () => {
  it.each([
    ['the browser-safe digest', sha256Hex],
    ["Node's digest", nodeSha256Hex],
  ])('are the drafts, their properties in order, without the rule key, the fingerprint last (%s)', async (_name, digest) => {
    const result = await registry.load('escrow-gaps', {} as GraphReader, { digest });
    const expected = drafts.map(({ ruleKey, ...finding }) => ({ ...finding, fingerprint: findingFingerprint('escrow-gaps', finding.kind, finding.subjectId, ruleKey) }));
    expect(JSON.stringify(result.findings)).toBe(JSON.stringify(expected));
    expect(result.findings.every((finding) => !('ruleKey' in finding))).toBe(true);
    // The rule key is part of the fingerprint: the same subject and kind without it is another finding.
    expect(result.findings[1]!.fingerprint).not.toBe(findingFingerprint('escrow-gaps', 'missing-laps-password', 'd-2'));
  });
});
