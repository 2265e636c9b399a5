import { describe, expect, it } from 'vitest';
import { REPORTS } from '../../../../src/core/reports/registry.js';
import { LOADING_TEXT } from '../../../../src/core/reports/report-model.js';
import { CLASSIC_PROFILE_READ, CONFLICT_SUMMARY_READ, MEMBER_DEVICES_READ } from '../../../../src/core/reports/setting-conflicts/reads.js';
import { CONFLICT_FINDING_KINDS } from '../../../../src/core/reports/setting-conflicts/finding-kinds.js';
import { settingConflictsReport } from '../../../../src/core/reports/setting-conflicts/definition.js';
import { assignmentHygieneReport } from '../../../../src/core/reports/assignment-hygiene/definition.js';
import { securityPostureReport } from '../../../../src/core/reports/security-posture/definition.js';

describe('the setting conflicts report as it says of itself', () => {
  it("uses the specification's words while pending", () => {
    expect(settingConflictsReport.pending).toEqual({ starting: LOADING_TEXT, fetching: LOADING_TEXT });
  });

  it("is the registry's seventh report, named by its bot names and its number, and its reads are those of reports 3 and 2, the conflict summary, device restrictions profiles and users' enrolled devices", () => {
    expect(REPORTS.ids[6]).toBe(settingConflictsReport.id);
    for (const name of ['setting conflicts', 'conflicts', 'policy conflicts', 'conflicting settings', '7', 'setting-conflicts'])
      expect(REPORTS.find(name), name).toBe(settingConflictsReport.id);
    const theirs = new Set([...securityPostureReport.reads, ...assignmentHygieneReport.reads]);
    expect(settingConflictsReport.reads.filter((read) => !theirs.has(read))).toEqual([CONFLICT_SUMMARY_READ, MEMBER_DEVICES_READ, CLASSIC_PROFILE_READ]);
    // Its own reads are optional and ask for no permission the others do not: the product's permissions are the six others'.
    expect(CONFLICT_SUMMARY_READ.optional).toBe(true);
    expect(MEMBER_DEVICES_READ.optional).toBe(true);
    expect(CLASSIC_PROFILE_READ.optional).toBe(true);
    const others = REPORTS.definitions.filter((definition) => definition.id !== settingConflictsReport.id);
    const theirPermissions = new Set(others.flatMap((definition) => definition.permissions));
    for (const read of [CONFLICT_SUMMARY_READ, MEMBER_DEVICES_READ, CLASSIC_PROFILE_READ]) expect(theirPermissions.has(read.permissions[0]), read.path).toBe(true);
    expect(new Set(REPORTS.reads)).toEqual(new Set([...others.flatMap((definition) => definition.reads), CONFLICT_SUMMARY_READ, MEMBER_DEVICES_READ, CLASSIC_PROFILE_READ]));
    expect(new Set(settingConflictsReport.permissions)).toEqual(new Set([...securityPostureReport.permissions, ...assignmentHygieneReport.permissions]));
  });

  it.each(Object.entries(CONFLICT_FINDING_KINDS))('%s has guidance: why, 2 to 6 distinct steps, Microsoft Learn sources', (_kind, entry) => {
    expect(entry.remediation.why.trim()).not.toBe('');
    const steps = entry.remediation.steps;
    expect(steps.length).toBeGreaterThanOrEqual(2);
    expect(steps.length).toBeLessThanOrEqual(6);
    expect(new Set(steps).size).toBe(steps.length);
    for (const source of entry.remediation.sources) expect(new URL(source.url).hostname).toBe('learn.microsoft.com');
  });
});
