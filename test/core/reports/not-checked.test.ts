import { describe, expect, it } from 'vitest';
import { notCheckedHeadline, notCheckedReasonText, notCheckedSources, worstNotChecked } from '../../../src/core/reports/not-checked.js';
import { escrowGapsReport } from '../../../src/core/reports/escrow-gaps/definition.js';
import type { ReportColumn } from '../../../src/core/reports/report-model.js';

const columns = (keys: boolean, laps: boolean): ReportColumn[] => [
  { key: 'device', label: 'Device', available: true, format: 'text' },
  { key: 'recoveryKey', label: 'Recovery key', available: keys, format: 'date' },
  { key: 'lapsPassword', label: 'LAPS password', available: laps, format: 'date' },
];

describe('not checked', () => {
  it('names nothing when every source answered', () => {
    expect(notCheckedSources(escrowGapsReport.optionalSources, columns(true, true), escrowGapsReport.findingKinds)).toEqual([]);
    expect(worstNotChecked([])).toBeNull();
  });

  it('names the checks of an n/a source worst first, its permission, and the worst it could hide', () => {
    const sources = notCheckedSources(escrowGapsReport.optionalSources, columns(false, true), escrowGapsReport.findingKinds);
    expect(sources).toEqual([
      {
        source: 'BitLocker recovery keys',
        column: 'Recovery key',
        permission: 'BitlockerKey.ReadBasic.All',
        checks: [
          { kind: 'missing-recovery-key', label: 'Devices without an escrowed BitLocker key', severity: 'high' },
          { kind: 'recovery-key-not-in-entra', label: 'Hybrid-joined devices without a BitLocker key in Entra ID', severity: 'medium' },
        ],
        worst: 'high',
      },
    ]);
    expect(notCheckedHeadline(sources)).toBe('Not checked: 2 checks, up to High');
    expect(notCheckedReasonText(sources[0]!)).toContain('BitlockerKey.ReadBasic.All');
    expect(notCheckedReasonText(sources[0]!)).toContain('BitLocker recovery keys');
  });

  it('takes the worst over several sources', () => {
    const sources = notCheckedSources(escrowGapsReport.optionalSources, columns(false, false), escrowGapsReport.findingKinds);
    expect(sources.map((source) => source.permission)).toEqual(['BitlockerKey.ReadBasic.All', 'DeviceLocalCredential.ReadBasic.All']);
    expect(worstNotChecked(sources)).toBe('high');
    expect(notCheckedHeadline(sources)).toBe('Not checked: 3 checks, up to High');
  });
});
