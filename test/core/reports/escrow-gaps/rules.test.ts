import { describe, expect, it } from 'vitest';
import { GraphError } from '../../../../src/core/graph/graph-error.js';
import {
  EMPTY_NOTICE,
  HYBRID_JOIN_NOTICE,
  LAPS_MAY_BE_IN_AD,
  LAPS_NOT_SUPPORTED,
  LAPS_PREREQUISITE_NOTICE,
  deriveEscrowGaps,
  joinTypeNotice,
} from '../../../../src/core/reports/escrow-gaps/derive.js';
import { isCloudPc, isOperatingSystemVolume, isWindows, isWorkplaceJoined } from '../../../../src/core/reports/escrow-gaps/load.js';
import type { EscrowRecords, EscrowSource, RecoveryKeyEscrow, WindowsDevice } from '../../../../src/core/reports/escrow-gaps/load.js';
import { entraDeviceId, graphTimestamp, unwrapSingleton } from '../../../../src/core/reports/graph-values.js';
import { intuneLinks } from '../../../../src/core/reports/intune-links.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { cellTone } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

const now = new Date('2026-11-22T09:00:00Z');
const context: DeriveContext = { now, thresholds: DEFAULT_THRESHOLDS };

const ENTRA = {
  alpha: 'aaaaaaaa-1111-4111-8111-00000000000a',
  bravo: 'bbbbbbbb-2222-4222-8222-00000000000b',
  charlie: 'cccccccc-3333-4333-8333-00000000000c',
  delta: 'dddddddd-4444-4444-8444-00000000000d',
} as const;

function device(id: string, deviceName: string, rawEntraId: unknown, extra: Partial<WindowsDevice> = {}): WindowsDevice {
  return {
    id,
    deviceName,
    userPrincipalName: `${deviceName.toLowerCase()}@contoso.example`,
    lastSyncDateTime: '2026-11-21T08:00:00.000Z',
    // The same normalisation load applies to managedDevice.azureADDeviceId.
    entraDeviceId: entraDeviceId(rawEntraId),
    joinType: null,
    cloudPc: false,
    ...extra,
  };
}

function keys(entries: Array<[string, RecoveryKeyEscrow]>): EscrowSource<RecoveryKeyEscrow> {
  return { available: true, byDevice: new Map(entries) };
}

function laps(entries: Array<[string, string | null]>): EscrowSource<string | null> {
  return { available: true, byDevice: new Map(entries) };
}

function forbidden(path: string): { available: false; error: GraphError } {
  return {
    available: false,
    error: new GraphError({
      kind: 'http',
      status: 403,
      code: 'Authorization_RequestDenied',
      message: 'Insufficient privileges to complete the operation.',
      method: 'GET',
      path,
      attempts: 1,
    }),
  };
}

const osKey = (created: string): RecoveryKeyEscrow => ({ hasOsVolumeKey: true, osVolumeKeyCreated: created, dataVolumeKeys: 0 });

/** Four devices given in alphabetical order, so the gap ordering has to come from the sort. */
function fleet(): EscrowRecords {
  return {
    joinTypeKnown: true,
    devices: [
      device('md-alpha', 'DESKTOP-ALPHA', ENTRA.alpha),
      device('md-bravo', 'DESKTOP-BRAVO', ENTRA.bravo),
      device('md-charlie', 'DESKTOP-CHARLIE', ENTRA.charlie),
      device('md-delta', 'DESKTOP-DELTA', ENTRA.delta),
    ],
    recoveryKeys: keys([
      [ENTRA.alpha, osKey('2026-10-01T10:00:00.000Z')],
      [ENTRA.bravo, osKey('2026-09-15T10:00:00.000Z')],
      // Delta: only a data-volume key.
      [ENTRA.delta, { hasOsVolumeKey: false, osVolumeKeyCreated: null, dataVolumeKeys: 2 }],
    ]),
    lapsPasswords: laps([
      [ENTRA.alpha, '2026-11-20T03:00:00.000Z'],
      [ENTRA.delta, '2026-11-19T03:00:00.000Z'],
    ]),
  };
}

const kindsOf = (report: ReturnType<typeof deriveEscrowGaps>) => report.findings.map((finding) => [finding.kind, finding.subjectId]);

describe('isWindows', () => {
  it.each(['Windows', 'windows', 'WINDOWS', '  Windows '])('%j is Windows', (value) => {
    expect(isWindows(value)).toBe(true);
  });

  it.each([['iOS'], ['Android'], ['macOS'], ['Windows Mobile'], [''], [null], [undefined], [1]])('%j is not Windows', (value) => {
    expect(isWindows(value)).toBe(false);
  });
});

describe('isOperatingSystemVolume', () => {
  // An absent volume type counts as the operating-system volume (design section 9): no false gap.
  it.each([['operatingSystemVolume'], [1], ['1'], [null], [undefined]])('%j is the operating-system volume', (value) => {
    expect(isOperatingSystemVolume(value)).toBe(true);
  });

  it.each([['fixedDataVolume'], ['removableDataVolume'], ['unknownFutureValue'], [2], [3], [0]])('%j is not the operating-system volume', (value) => {
    expect(isOperatingSystemVolume(value)).toBe(false);
  });
});

describe('deriveEscrowGaps', () => {
  it('has the specification columns, with recoveryKey and lapsPassword as the two source columns', () => {
    const report = deriveEscrowGaps(fleet(), context);
    expect(report.columns.map((column) => column.key)).toEqual(['device', 'user', 'lastCheckIn', 'recoveryKey', 'lapsPassword', 'note']);
    expect(report.columns.every((column) => column.available)).toBe(true);
    expect(report.state).toBe('loaded');
    expect(report.notice).toBeNull();
  });

  it('lists devices missing both first, then missing either, then complete', () => {
    const report = deriveEscrowGaps(fleet(), context);
    expect(report.rows.map((row) => row.id)).toEqual(['md-charlie', 'md-bravo', 'md-delta', 'md-alpha']);
  });

  it('fills each row with the escrowed dates or "missing"', () => {
    const report = deriveEscrowGaps(fleet(), context);
    const byId = new Map(report.rows.map((row) => [row.id, row]));
    expect(byId.get('md-alpha')).toEqual({
      id: 'md-alpha',
      device: 'DESKTOP-ALPHA',
      user: 'desktop-alpha@contoso.example',
      lastCheckIn: '2026-11-21T08:00:00.000Z',
      recoveryKey: '2026-10-01T10:00:00.000Z',
      lapsPassword: '2026-11-20T03:00:00.000Z',
      note: null,
      link: intuneLinks.managedDevice('md-alpha'),
    });
    expect(byId.get('md-bravo')).toMatchObject({ recoveryKey: '2026-09-15T10:00:00.000Z', lapsPassword: 'missing', note: null });
    expect(byId.get('md-charlie')).toMatchObject({ recoveryKey: 'missing', lapsPassword: 'missing', note: null });
    // The columns give the tones by word: a missing key as loud as its high finding, a missing password as its medium one.
    const [keyColumn, lapsColumn] = ['recoveryKey', 'lapsPassword'].map((key) => report.columns.find((column) => column.key === key)!);
    expect([cellTone(byId.get('md-charlie')!, keyColumn!), cellTone(byId.get('md-charlie')!, lapsColumn!)]).toEqual(['danger', 'warning']);
    expect([cellTone(byId.get('md-alpha')!, keyColumn!), cellTone(byId.get('md-alpha')!, lapsColumn!)]).toEqual(['ok', 'ok']);
    // The internal sort key never leaks into a row.
    expect(report.rows.every((row) => !('gaps' in row))).toBe(true);
  });

  it('raises one finding per gap, on the managed device id, and none for a complete device', () => {
    const report = deriveEscrowGaps(fleet(), context);
    expect(kindsOf(report)).toEqual([
      ['missing-laps-password', 'md-bravo'],
      ['missing-recovery-key', 'md-charlie'],
      ['missing-laps-password', 'md-charlie'],
      ['missing-recovery-key', 'md-delta'],
    ]);
    expect(report.findings.filter((finding) => finding.subjectId === 'md-alpha')).toEqual([]);
    expect(report.findings.find((finding) => finding.subjectId === 'md-bravo')).toEqual({
      kind: 'missing-laps-password',
      subjectId: 'md-bravo',
      subjectName: 'DESKTOP-BRAVO',
      detail: 'No Windows LAPS local administrator password is backed up to Entra ID for this device.',
    });
    expect(report.findings.find((finding) => finding.kind === 'missing-recovery-key' && finding.subjectId === 'md-charlie')?.detail).toBe(
      'No BitLocker recovery key is escrowed in Entra ID for this device.',
    );
  });

  it('takes a device with only a data-volume key as missing-recovery-key and says so in its row', () => {
    const report = deriveEscrowGaps(fleet(), context);
    const delta = report.rows.find((row) => row.id === 'md-delta');
    expect(delta).toMatchObject({ recoveryKey: 'missing', lapsPassword: '2026-11-19T03:00:00.000Z' });
    expect(delta?.note).toBe('Only data-volume keys are escrowed, none for the operating-system volume');
    expect(report.findings.find((finding) => finding.subjectId === 'md-delta')).toEqual({
      kind: 'missing-recovery-key',
      subjectId: 'md-delta',
      subjectName: 'DESKTOP-DELTA',
      detail: 'No BitLocker recovery key is escrowed for the operating-system volume (only data-volume keys).',
    });
  });

  it('does not mention data-volume keys for a device with an operating-system key as well', () => {
    const records: EscrowRecords = {
      joinTypeKnown: true,
      devices: [device('md-1', 'PC-1', ENTRA.alpha)],
      recoveryKeys: keys([[ENTRA.alpha, { hasOsVolumeKey: true, osVolumeKeyCreated: '2026-10-01T10:00:00.000Z', dataVolumeKeys: 3 }]]),
      lapsPasswords: laps([[ENTRA.alpha, '2026-11-20T03:00:00.000Z']]),
    };
    const report = deriveEscrowGaps(records, context);
    expect(report.rows[0]).toMatchObject({ recoveryKey: '2026-10-01T10:00:00.000Z', note: null });
    expect(report.findings).toEqual([]);
  });

  it('shows "escrowed" when a LAPS record exists without a last backup time', () => {
    const records: EscrowRecords = {
      joinTypeKnown: true,
      devices: [device('md-1', 'PC-1', ENTRA.alpha)],
      recoveryKeys: keys([[ENTRA.alpha, osKey('2026-10-01T10:00:00.000Z')]]),
      lapsPasswords: laps([[ENTRA.alpha, null]]),
    };
    const report = deriveEscrowGaps(records, context);
    expect(report.rows[0]?.lapsPassword).toBe('escrowed');
    expect(report.findings).toEqual([]);
  });

  it.each([
    ['an empty id', ''],
    ['an all-zero id', '00000000-0000-0000-0000-000000000000'],
    ['a null id', null],
    ['an absent id', undefined],
  ])('gives a device with %s both findings and the "Not registered in Entra ID" note', (_label, rawId) => {
    const records: EscrowRecords = {
      joinTypeKnown: true,
      devices: [device('md-unreg', 'PC-UNREGISTERED', rawId)],
      // Escrow exists for other devices, and even under the zero GUID: none of it may be joined.
      recoveryKeys: keys([
        [ENTRA.alpha, osKey('2026-10-01T10:00:00.000Z')],
        ['00000000-0000-0000-0000-000000000000', osKey('2026-10-01T10:00:00.000Z')],
      ]),
      lapsPasswords: laps([
        [ENTRA.alpha, '2026-11-20T03:00:00.000Z'],
        ['00000000-0000-0000-0000-000000000000', '2026-11-20T03:00:00.000Z'],
      ]),
    };
    const report = deriveEscrowGaps(records, context);
    expect(records.devices[0]?.entraDeviceId).toBeNull();
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]).toMatchObject({ id: 'md-unreg', recoveryKey: 'missing', lapsPassword: 'missing' });
    expect(report.rows[0]?.note).toBe('Not registered in Entra ID, so nothing can be escrowed');
    expect(report.findings).toEqual([
      {
        kind: 'missing-recovery-key',
        subjectId: 'md-unreg',
        subjectName: 'PC-UNREGISTERED',
        detail: 'No BitLocker recovery key can be escrowed: the device is not registered in Entra ID.',
      },
      {
        kind: 'missing-laps-password',
        subjectId: 'md-unreg',
        subjectName: 'PC-UNREGISTERED',
        detail: 'No local administrator password can be escrowed: the device is not registered in Entra ID.',
      },
    ]);
  });

  it('does not note "not registered" for a registered device', () => {
    const report = deriveEscrowGaps(fleet(), context);
    expect(report.rows.some((row) => String(row.note ?? '').includes('Not registered'))).toBe(false);
  });

  it('joins on the Entra device id case-insensitively', () => {
    // Each source writes the GUID in its own case; the loaders normalise all three with entraDeviceId().
    const records: EscrowRecords = {
      joinTypeKnown: true,
      devices: [device('md-mixed', 'PC-MIXED', 'ABCDEF01-2345-4678-9ABC-DEF012345678')],
      recoveryKeys: keys([[entraDeviceId('abcdef01-2345-4678-9abc-def012345678')!, osKey('2026-10-01T10:00:00.000Z')]]),
      lapsPasswords: laps([[entraDeviceId('AbCdEf01-2345-4678-9aBc-DeF012345678')!, '2026-11-20T03:00:00.000Z']]),
    };
    const report = deriveEscrowGaps(records, context);
    expect(report.rows[0]).toMatchObject({ recoveryKey: '2026-10-01T10:00:00.000Z', lapsPassword: '2026-11-20T03:00:00.000Z', note: null });
    expect(report.findings).toEqual([]);
  });

  it('never joins escrow of another device', () => {
    const records: EscrowRecords = {
      joinTypeKnown: true,
      devices: [device('md-1', 'PC-1', ENTRA.alpha)],
      recoveryKeys: keys([[ENTRA.bravo, osKey('2026-10-01T10:00:00.000Z')]]),
      lapsPasswords: laps([[ENTRA.bravo, '2026-11-20T03:00:00.000Z']]),
    };
    const report = deriveEscrowGaps(records, context);
    expect(kindsOf(report)).toEqual([
      ['missing-recovery-key', 'md-1'],
      ['missing-laps-password', 'md-1'],
    ]);
  });

  describe('an escrow source that was not granted', () => {
    it('shows the recovery-key column as n/a, derives nothing from it, and still reports LAPS gaps', () => {
      const records: EscrowRecords = { ...fleet(), recoveryKeys: forbidden('/v1.0/informationProtection/bitlocker/recoveryKeys') };
      const report = deriveEscrowGaps(records, context);
      expect(report.state).toBe('loaded');
      expect(report.columns.find((column) => column.key === 'recoveryKey')?.available).toBe(false);
      expect(report.columns.find((column) => column.key === 'lapsPassword')?.available).toBe(true);
      expect(report.rows.map((row) => row.recoveryKey)).toEqual([null, null, null, null]);
      expect(report.findings.filter((finding) => finding.kind === 'missing-recovery-key')).toEqual([]);
      expect(kindsOf(report)).toEqual([
        ['missing-laps-password', 'md-bravo'],
        ['missing-laps-password', 'md-charlie'],
      ]);
      // Delta's data-volume-only note comes from the withheld source, so it is not shown either.
      expect(report.rows.find((row) => row.id === 'md-delta')?.note).toBeNull();
      // Ordered on the gaps that could be checked: missing LAPS first, then complete, by name.
      expect(report.rows.map((row) => row.id)).toEqual(['md-bravo', 'md-charlie', 'md-alpha', 'md-delta']);
    });

    it('shows the LAPS column as n/a, derives nothing from it, and still reports recovery-key gaps', () => {
      const records: EscrowRecords = { ...fleet(), lapsPasswords: forbidden('/v1.0/directory/deviceLocalCredentials') };
      const report = deriveEscrowGaps(records, context);
      expect(report.state).toBe('loaded');
      expect(report.columns.find((column) => column.key === 'lapsPassword')?.available).toBe(false);
      expect(report.columns.find((column) => column.key === 'recoveryKey')?.available).toBe(true);
      expect(report.rows.map((row) => row.lapsPassword)).toEqual([null, null, null, null]);
      expect(report.findings.filter((finding) => finding.kind === 'missing-laps-password')).toEqual([]);
      expect(kindsOf(report)).toEqual([
        ['missing-recovery-key', 'md-charlie'],
        ['missing-recovery-key', 'md-delta'],
      ]);
      expect(report.rows.map((row) => row.id)).toEqual(['md-charlie', 'md-delta', 'md-alpha', 'md-bravo']);
      // A source that could not be read is not "no LAPS anywhere": no prerequisite hint.
      expect(report.notice).toBeNull();
    });

    it('still notes an unregistered device, with only the checkable finding', () => {
      const records: EscrowRecords = {
        joinTypeKnown: true,
        devices: [device('md-unreg', 'PC-UNREGISTERED', null)],
        recoveryKeys: forbidden('/v1.0/informationProtection/bitlocker/recoveryKeys'),
        lapsPasswords: laps([[ENTRA.alpha, '2026-11-20T03:00:00.000Z']]),
      };
      const report = deriveEscrowGaps(records, context);
      expect(report.rows[0]).toMatchObject({ recoveryKey: null, lapsPassword: 'missing', note: 'Not registered in Entra ID, so nothing can be escrowed' });
      expect(kindsOf(report)).toEqual([['missing-laps-password', 'md-unreg']]);
    });
  });

  describe('notices', () => {
    it('is empty with exactly the specification notice when Intune returned no Windows devices', () => {
      const report = deriveEscrowGaps({ ...fleet(), devices: [] }, context);
      expect(EMPTY_NOTICE).toBe('Intune returned no Windows devices.');
      expect(report).toEqual({ state: 'empty', notice: EMPTY_NOTICE, columns: report.columns, rows: [], findings: [] });
      expect(report.columns.map((column) => column.key)).toContain('recoveryKey');
      expect(report.columns.map((column) => column.key)).toContain('lapsPassword');
    });

    it('keeps a withheld source n/a on the empty notice as well', () => {
      const report = deriveEscrowGaps(
        { joinTypeKnown: true, devices: [], recoveryKeys: forbidden('/v1.0/informationProtection/bitlocker/recoveryKeys'), lapsPasswords: laps([]) },
        context,
      );
      expect(report.state).toBe('empty');
      expect(report.notice).toBe(EMPTY_NOTICE);
      expect(report.columns.find((column) => column.key === 'recoveryKey')?.available).toBe(false);
    });

    it('shows the LAPS prerequisite notice when Windows devices exist but not a single LAPS record does', () => {
      const report = deriveEscrowGaps({ ...fleet(), lapsPasswords: laps([]) }, context);
      expect(report.state).toBe('loaded');
      expect(report.notice).toBe(LAPS_PREREQUISITE_NOTICE);
      expect(LAPS_PREREQUISITE_NOTICE).toContain('Is Windows LAPS enabled in Entra ID device settings?');
      // The gaps are still listed under the notice.
      expect(report.findings.filter((finding) => finding.kind === 'missing-laps-password').map((finding) => finding.subjectId)).toEqual([
        'md-alpha',
        'md-bravo',
        'md-charlie',
        'md-delta',
      ]);
    });

    it('shows no prerequisite notice once a single LAPS record exists', () => {
      const report = deriveEscrowGaps({ ...fleet(), lapsPasswords: laps([[ENTRA.alpha, '2026-11-20T03:00:00.000Z']]) }, context);
      expect(report.notice).toBeNull();
    });
  });
});

describe('devices that are not gaps in the same sense (issue 11, point 6)', () => {
  const noKeys = () => keys([]);
  const allLaps = (...ids: string[]) => laps(ids.map((id) => [id, '2026-11-20T03:00:00.000Z']));

  it('recognises a Windows 365 Cloud PC by the model Windows 365 gives it', () => {
    expect(isCloudPc('Cloud PC Enterprise 2vCPU/8GB/128GB')).toBe(true);
    expect(isCloudPc('cloud pc business 4vCPU/16GB/256GB')).toBe(true);
    expect(isCloudPc('Surface Laptop 5')).toBe(false);
    expect(isCloudPc('Cloud PCs are great')).toBe(false);
    expect(isCloudPc(null)).toBe(false);
  });

  it('a Cloud PC without a key makes no recovery-key finding: BitLocker does not apply, and the row says why', () => {
    const records: EscrowRecords = {
      joinTypeKnown: false,
      devices: [device('md-cpc', 'CPC-ANNA-7X2Q', ENTRA.alpha, { cloudPc: true })],
      recoveryKeys: noKeys(),
      lapsPasswords: laps([]),
    };
    const report = deriveEscrowGaps(records, context);
    expect(report.rows[0]).toMatchObject({
      recoveryKey: 'not applicable',
      lapsPassword: 'missing',
      note: 'Windows 365 Cloud PC: BitLocker is not supported; Windows 365 encrypts its disks',
    });
    // LAPS still applies to a Cloud PC.
    expect(kindsOf(report)).toEqual([['missing-laps-password', 'md-cpc']]);
  });

  it('a hybrid-joined device without a key in Entra ID is its own medium finding, never the High one, and the row says where to look', () => {
    const records: EscrowRecords = {
      joinTypeKnown: true,
      devices: [device('md-hybrid', 'HQ-DESK-01', ENTRA.alpha, { joinType: 'hybridAzureADJoined' }), device('md-cloud', 'LAPTOP-02', ENTRA.bravo, { joinType: 'azureADJoined' })],
      recoveryKeys: noKeys(),
      lapsPasswords: allLaps(ENTRA.alpha, ENTRA.bravo),
    };
    const report = deriveEscrowGaps(records, context);
    expect(kindsOf(report)).toEqual([
      ['recovery-key-not-in-entra', 'md-hybrid'],
      ['missing-recovery-key', 'md-cloud'],
    ]);
    expect(report.rows.find((row) => row.id === 'md-hybrid')?.note).toBe(
      'Hybrid joined: its BitLocker key may be escrowed to on-premises Active Directory, which Graph cannot show',
    );
    expect(report.findings.find((finding) => finding.subjectId === 'md-hybrid')?.detail).toContain('on-premises Active Directory');
    // The join type was known, so no caveat about it.
    expect(report.notice).toBeNull();
  });

  it('read without the join type (/v1.0), a missing key stays the High finding and the report says hybrid devices cannot be told apart', () => {
    const records: EscrowRecords = { joinTypeKnown: false, devices: [device('md-1', 'PC-1', ENTRA.alpha)], recoveryKeys: noKeys(), lapsPasswords: allLaps(ENTRA.alpha) };
    const report = deriveEscrowGaps(records, context);
    expect(kindsOf(report)).toEqual([['missing-recovery-key', 'md-1']]);
    expect(report.notice).toBe(HYBRID_JOIN_NOTICE);
    expect(HYBRID_JOIN_NOTICE).toContain("Whoever runs this app can have it read Microsoft Graph's beta version, as the Intune admin center does");
    expect(HYBRID_JOIN_NOTICE).not.toContain('GRAPH_BETA_COVERAGE');
  });
});

describe('LAPS by join type (Windows LAPS: Entra joined or hybrid joined, one directory or the other)', () => {
  const osKeys = (...ids: string[]) => keys(ids.map((id) => [id, osKey('2026-10-01T10:00:00.000Z')]));
  const joinFleet = (joinTypeKnown: boolean): EscrowRecords => ({
    joinTypeKnown,
    devices: [
      device('md-registered', 'BYOD-01', ENTRA.alpha, { joinType: joinTypeKnown ? 'azureADRegistered' : null }),
      device('md-hybrid', 'HQ-DESK-01', ENTRA.bravo, { joinType: joinTypeKnown ? 'hybridAzureADJoined' : null }),
      device('md-joined', 'LAPTOP-03', ENTRA.charlie, { joinType: joinTypeKnown ? 'azureADJoined' : null }),
      device('md-backed-up', 'LAPTOP-04', ENTRA.delta, { joinType: joinTypeKnown ? 'hybridAzureADJoined' : null }),
    ],
    recoveryKeys: osKeys(ENTRA.alpha, ENTRA.bravo, ENTRA.charlie, ENTRA.delta),
    lapsPasswords: laps([[ENTRA.delta, '2026-11-20T03:00:00.000Z']]),
  });

  it('reads azureADRegistered, and only it, as workplace joined', () => {
    expect(isWorkplaceJoined('azureADRegistered')).toBe(true);
    for (const other of ['azureADJoined', 'hybridAzureADJoined', 'unknown', null]) expect(isWorkplaceJoined(other)).toBe(false);
  });

  it('a workplace-joined device is "not supported", not missing: no finding, nothing left unchecked, and the row says why', () => {
    const report = deriveEscrowGaps(joinFleet(true), context);
    const row = report.rows.find((candidate) => candidate.id === 'md-registered')!;
    expect(row.lapsPassword).toBe(LAPS_NOT_SUPPORTED);
    expect(row.note).toBe('Microsoft Entra registered (workplace joined): Windows LAPS does not support it');
    expect(report.findings.some((finding) => finding.subjectId === 'md-registered')).toBe(false);
    expect((report.uncheckedSubjects ?? []).some((subject) => subject.subjectId === 'md-registered')).toBe(false);
    const lapsColumn = report.columns.find((column) => column.key === 'lapsPassword')!;
    expect(cellTone(row, lapsColumn)).toBe('neutral');
  });

  it('a hybrid-joined device without a password in Entra ID "may be backed up to AD": no finding, the missing-password check left unchecked for it', () => {
    const report = deriveEscrowGaps(joinFleet(true), context);
    const row = report.rows.find((candidate) => candidate.id === 'md-hybrid')!;
    expect(row.lapsPassword).toBe(LAPS_MAY_BE_IN_AD);
    expect(row.note).toBe(
      'Hybrid joined: its BitLocker key may be escrowed to on-premises Active Directory, which Graph cannot show. Its LAPS password may be backed up to on-premises Active Directory instead of Entra ID (one or the other, never both)',
    );
    expect(report.findings.some((finding) => finding.subjectId === 'md-hybrid')).toBe(false);
    // What Graph cannot show is unknown: an earlier finding about it stays open rather than resolved.
    expect(report.uncheckedSubjects).toEqual([{ kind: 'missing-laps-password', subjectId: 'md-hybrid', ruleKey: '' }]);
    const lapsColumn = report.columns.find((column) => column.key === 'lapsPassword')!;
    expect(cellTone(row, lapsColumn)).toBe('neutral');
    // A hybrid-joined device whose password is in Entra ID shows its date, and an Entra joined one without is missing.
    expect(report.rows.find((candidate) => candidate.id === 'md-backed-up')?.lapsPassword).toBe('2026-11-20T03:00:00.000Z');
    expect(kindsOf(report)).toEqual([['missing-laps-password', 'md-joined']]);
    expect(report.notice).toBeNull();
  });

  it('read without the join type (/v1.0), both are missing their password, and the report says why it cannot tell', () => {
    const report = deriveEscrowGaps(joinFleet(false), context);
    expect(kindsOf(report)).toEqual([
      ['missing-laps-password', 'md-registered'],
      ['missing-laps-password', 'md-hybrid'],
      ['missing-laps-password', 'md-joined'],
    ]);
    expect(report.uncheckedSubjects).toBeUndefined();
    expect(report.notice).toBe(joinTypeNotice({ keys: false, laps: true }));
    expect(report.notice).toContain('Microsoft Entra registered device, which Windows LAPS does not support');
    expect(report.notice).toContain("Whoever runs this app can have it read Microsoft Graph's beta version, as the Intune admin center does");
  });

  it('one caveat covers missing keys and missing passwords alike', () => {
    expect(joinTypeNotice({ keys: true, laps: false })).toBe(HYBRID_JOIN_NOTICE);
    const both = joinTypeNotice({ keys: true, laps: true });
    expect(both).toContain('BitLocker key or backs up its LAPS password to on-premises Active Directory');
    expect(both.match(/Whoever runs this app/g)).toHaveLength(1);
  });

  it('a workplace-joined device whose password Entra ID holds after all shows it: the data wins', () => {
    const records = joinFleet(true);
    records.lapsPasswords = laps([[ENTRA.alpha, '2026-11-18T03:00:00.000Z']]);
    const report = deriveEscrowGaps(records, context);
    expect(report.rows.find((candidate) => candidate.id === 'md-registered')?.lapsPassword).toBe('2026-11-18T03:00:00.000Z');
  });
});

describe('graph values', () => {
  describe('entraDeviceId', () => {
    it('lower-cases and trims a registered id', () => {
      expect(entraDeviceId('ABCDEF01-2345-4678-9ABC-DEF012345678')).toBe('abcdef01-2345-4678-9abc-def012345678');
      expect(entraDeviceId('  abcdef01-2345-4678-9abc-def012345678 ')).toBe('abcdef01-2345-4678-9abc-def012345678');
    });

    it.each([[''], ['   '], ['00000000-0000-0000-0000-000000000000'], [null], [undefined], [42], [{}]])('takes %j as not registered', (value) => {
      expect(entraDeviceId(value)).toBeNull();
    });
  });

  describe('graphTimestamp', () => {
    it('parses an ISO timestamp', () => {
      expect(graphTimestamp('2026-11-21T08:00:00Z')?.toISOString()).toBe('2026-11-21T08:00:00.000Z');
      expect(graphTimestamp('2026-11-21T08:00:00.1234567Z')?.toISOString()).toBe('2026-11-21T08:00:00.123Z');
    });

    it.each([['0001-01-01T00:00:00Z'], ['0001-01-01T00:00:00.0000000Z'], [''], ['not a date'], [null], [undefined], [1_700_000_000_000]])('takes %j as never', (value) => {
      expect(graphTimestamp(value)).toBeNull();
    });
  });

  describe('unwrapSingleton', () => {
    it('returns a top-level singleton as it is', () => {
      const body = { id: 'autopilot', syncStatus: 'completed' };
      expect(unwrapSingleton(body)).toBe(body);
    });

    it('unwraps a {"value": {...}} wrapper', () => {
      const inner = { id: 'autopilot', syncStatus: 'failed' };
      expect(unwrapSingleton({ '@odata.context': 'https://graph.microsoft.com/beta/$metadata#x', value: inner })).toBe(inner);
    });

    it('does not unwrap a collection or a scalar value', () => {
      const collection = { value: [{ id: 'a' }] };
      expect(unwrapSingleton(collection)).toBe(collection);
      const scalar = { value: 'text', id: 'x' };
      expect(unwrapSingleton(scalar)).toBe(scalar);
      const nullValue = { value: null, id: 'x' };
      expect(unwrapSingleton(nullValue)).toBe(nullValue);
    });

    it.each([[null], [undefined], ['{"id":"x"}'], [7]])('is null for the non-object %j', (value) => {
      expect(unwrapSingleton(value)).toBeNull();
    });
  });
});
