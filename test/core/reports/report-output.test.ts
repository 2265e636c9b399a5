import { describe, expect, it } from 'vitest';
import { reportToText } from '../../../src/cli/report-text.js';
import { csvField, reportToCsv } from '../../../src/core/reports/report-csv.js';
import type { ReportResult } from '../../../src/core/reports/report-model.js';
import { escrowGapsReport } from '../../../src/core/reports/escrow-gaps/definition.js';
import { notCheckedSources } from '../../../src/core/reports/not-checked.js';

const columns: ReportResult['columns'] = [
  { key: 'device', label: 'Device', available: true, format: 'text' },
  { key: 'recoveryKey', label: 'Recovery key', available: true, format: 'text' },
  { key: 'lapsPassword', label: 'LAPS password', available: false, format: 'text' },
];

const report: ReportResult = {
  report: 'escrow-gaps',
  title: 'Windows LAPS & BitLocker Escrow Gaps',
  state: 'loaded',
  error: null,
  notice: null,
  columns,
  rows: [
    { id: 'd1', device: '=HYPERLINK("http://evil.example","x")', recoveryKey: 'missing', lapsPassword: null, link: 'https://intune.microsoft.com/#view/x' },
    { id: 'd2', device: 'PC "two", upstairs\u001b]0;owned\u0007', recoveryKey: '2026-11-01T10:00:00.000Z', lapsPassword: null, link: null },
  ],
  findings: [{ kind: 'missing-recovery-key', subjectId: 'd1', subjectName: 'PC\u001b[2J', detail: 'No key.', fingerprint: 'f' }],
  findingKinds: escrowGapsReport.findingKinds,
  unchecked: ['missing-laps-password'],
  uncheckedSubjects: [],
  notChecked: notCheckedSources(escrowGapsReport.optionalSources, columns, escrowGapsReport.findingKinds),
  generatedAt: '2026-11-22T09:00:00.000Z',
};

describe('CSV export', () => {
  it("quotes per RFC 4180, defuses spreadsheet formulas, writes n/a for an ungranted column, and adds each row's findings", () => {
    const lines = reportToCsv(report).split('\r\n');
    expect(lines[0]).toBe('Device,Recovery key,LAPS password,Findings,Severity,Detail,Link');
    expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")",missing,n/a,Devices without an escrowed BitLocker key,high,No key.,https://intune.microsoft.com/#view/x`);
    expect(lines[2]).toMatch(/^"PC ""two"", upstairs.*,,,,$/);
    expect(lines.at(-1)).toBe('');
  });

  it('leaves numbers and ordinary text alone', () => {
    expect(csvField(-3)).toBe('-3');
    expect(csvField('DESKTOP-01')).toBe('DESKTOP-01');
    expect(csvField('+44 20 7946 0000')).toBe("'+44 20 7946 0000");
    expect(csvField(null)).toBe('');
  });

  it('guards a formula behind leading white space, as a spreadsheet reads past it', () => {
    // A tab is folded into a space on the one-line text, which used to hide the `=` from the guard.
    expect(csvField('\t=1+1')).toBe("' =1+1");
    expect(csvField('  @SUM(A1)')).toBe("'  @SUM(A1)");
    expect(csvField('\u00a0-2+3')).toBe("'\u00a0-2+3");
    expect(csvField('\uff1dcmd')).toBe("'\uff1dcmd");
    expect(csvField(' DESKTOP 01')).toBe(' DESKTOP 01');
  });

  it('puts a section column first when the report has several tables', () => {
    const csv = reportToCsv({
      columns: [
        { key: 'area', label: 'Area', available: true, section: 'coverage', format: 'text' },
        { key: 'policy', label: 'Access policy', available: true, section: 'policies', format: 'text' },
      ],
      rows: [
        { section: 'coverage', area: 'Wiping devices', link: null },
        { section: 'policies', policy: 'Wipe approvals', link: null },
      ],
      findings: [],
      findingKinds: {},
    });
    expect(csv.split('\r\n').slice(0, 3)).toEqual(['Section,Area,Access policy,Findings,Severity,Detail,Link', 'coverage,Wiping devices,,,,,', 'policies,,Wipe approvals,,,,']);
  });

  it("lists a row's findings worst first, and its worst severity", () => {
    const csv = reportToCsv({
      columns: [{ key: 'device', label: 'Device', available: true, format: 'text' }],
      rows: [{ id: 'd1', device: 'PC-1', link: null }],
      findings: [
        { kind: 'missing-laps-password', subjectId: 'd1', subjectName: 'PC-1', detail: 'No password.', fingerprint: 'a' },
        { kind: 'missing-recovery-key', subjectId: 'd1', subjectName: 'PC-1', detail: 'No key.', fingerprint: 'b' },
      ],
      findingKinds: escrowGapsReport.findingKinds,
    });
    expect(csv.split('\r\n')[1]).toBe('PC-1,Devices without an escrowed BitLocker key; Devices without an escrowed LAPS password,high,No key. No password.,');
  });
});

describe('terminal table', () => {
  it('never passes control characters from tenant data to the terminal, and marks n/a columns', () => {
    const text = reportToText(report, { beta: false, prerequisites: [], tables: {} }, { color: false, width: null });
    const controls = [...text].filter((char) => char !== '\n' && (char.charCodeAt(0) < 0x20 || (char.charCodeAt(0) >= 0x7f && char.charCodeAt(0) <= 0x9f)));
    expect(controls).toEqual([]);
    expect(text).toContain('2026-11-01 10:00 UTC');
    expect(text).toContain('Not checked: 1 check, up to Medium.');
    expect(text).toContain('(n/a column: LAPS password)');
    expect(text).toContain('    PC[2J: No key.');
  });

  it('says how to fix each kind of finding, worst first, with its Microsoft Learn sources', () => {
    const text = reportToText(report, { beta: false, prerequisites: [], tables: {} }, { color: false, width: null });
    const guidance = escrowGapsReport.findingKinds['missing-recovery-key'].remediation;
    expect(text).toContain('How to fix them, worst first:');
    expect(text).toContain('  Devices without an escrowed BitLocker key (missing-recovery-key: 1, High)');
    expect(text).toContain(`    Why it matters: ${guidance.why}`);
    expect(text).toContain(`    1. ${guidance.steps[0]}`);
    // The address alone on the next line, whole: clickable and copyable.
    expect(text).toContain(`    Learn: ${guidance.sources[0]!.title}\n      ${guidance.sources[0]!.url}\n`);
  });
});

describe('tenant text that tries to forge or reorder a line', () => {
  const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
  const hostile: ReportResult = {
    ...report,
    rows: [
      { id: 'd1', device: 'PC-1\n  missing-laps-password  FORGED: a finding that is not', recoveryKey: 'missing', lapsPassword: null, link: null },
      { id: 'd2', device: 'PC-2\rOVERWRITTEN', recoveryKey: 'missing', lapsPassword: null, link: null },
      { id: 'd3', device: 'invoice\u202Efdp.exe \u2066hidden\u2069 \u200F', recoveryKey: 'missing', lapsPassword: null, link: null },
      { id: 'd4', device: 'PC-4\u2028PC-5\u0085PC-6', recoveryKey: 'missing', lapsPassword: null, link: null },
    ],
    findings: [
      {
        kind: 'missing-recovery-key',
        subjectId: 'd1',
        subjectName: 'PC-1\n  missing-laps-password  FORGED',
        detail: 'No key.\r\n  missing-laps-password  FORGED AGAIN',
        fingerprint: 'a',
      },
      { kind: 'missing-recovery-key', subjectId: 'd3', subjectName: 'invoice\u202Efdp.exe', detail: 'No key.', fingerprint: 'b' },
    ],
  };

  it('in the terminal: one line per finding and per row, no carriage return, no bidirectional formatting', () => {
    const text = reportToText(hostile, { beta: false, prerequisites: [], tables: {} }, { color: false, width: null });
    expect(text).not.toContain('\r');
    expect(text).not.toMatch(BIDI);
    expect(text.split('\n').filter((line) => line.trimStart().startsWith('missing-laps-password'))).toEqual([]);
    expect(text).toContain('\n    PC-1   missing-laps-password  FORGED: No key.   missing-laps-password  FORGED AGAIN\n');
    expect(text).toContain('invoicefdp.exe');
  });

  it('in CSV: one record per row, nothing a line break or an override can move', () => {
    const lines = reportToCsv(hostile).split('\r\n');
    expect(lines).toHaveLength(1 + hostile.rows.length + 1);
    expect(lines.join('\n')).not.toMatch(/[\r\u2028\u2029\u0085]|[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/);
    expect(lines[2]).toMatch(/^PC-2 OVERWRITTEN,missing,n\/a,/);
    expect(lines[4]).toMatch(/^PC-4 PC-5 PC-6,/);
  });
});
