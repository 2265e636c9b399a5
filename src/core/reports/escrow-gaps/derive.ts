/** Report 4's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import type { DeriveContext, DerivedReport, FindingDraft, ReportColumn, ReportRow, UncheckedSubject } from '../report-model.js';
import { severityTone } from '../report-model.js';
import { ESCROW_FINDING_KINDS, HYBRID_KEY_KIND, MISSING_KEY_KIND, MISSING_LAPS_KIND } from './finding-kinds.js';
import type { EscrowFindingKind } from './finding-kinds.js';
import { isHybridJoined, isWorkplaceJoined } from './load.js';
import type { EscrowRecords } from './load.js';
import { BETA_COVERAGE_ASK } from '../beta-coverage.js';
import { DeviceNameOrder } from './name-order.js';
import { deviceRow } from './escrow-join.js';
import type { EscrowJoin } from './escrow-join.js';

export const EMPTY_NOTICE = 'Intune returned no Windows devices.';

/** The words an escrow cell holds where there is no date: nothing escrowed, or nothing to escrow (a Cloud PC). */
const MISSING = 'missing';
const NOT_APPLICABLE = 'not applicable';
/**
 * The LAPS cell of a Microsoft Entra registered (workplace-joined) device: Windows LAPS does not support
 * it (learn.microsoft.com/mem/intune/protect/windows-laps-overview, "Active Directory support").
 */
export const LAPS_NOT_SUPPORTED = 'not supported';
/**
 * The LAPS cell of a hybrid-joined device with no record in Entra ID: Windows LAPS backs up to "one
 * directory type or the other, but not both" (the same page), so its password may be in on-premises
 * Active Directory, which Graph cannot show. Not a finding: the data does not prove a gap.
 */
export const LAPS_MAY_BE_IN_AD = 'may be backed up to AD';
/**
 * The caveat of a load without the join type (read on /v1.0, or on beta for the scope tags only:
 * load.ts), for what it makes findings of: missing keys
 * (a hybrid-joined device's may be in AD), missing LAPS passwords (a hybrid-joined device's may be in
 * AD, and a Microsoft Entra registered device cannot have one), or both.
 */
export function joinTypeNotice(gaps: { keys: boolean; laps: boolean }): string {
  if (gaps.keys && !gaps.laps) return HYBRID_JOIN_NOTICE;
  const hybrid = gaps.keys
    ? 'a hybrid-joined device that escrows its BitLocker key or backs up its LAPS password to on-premises Active Directory shows here as missing them in Entra ID'
    : 'a hybrid-joined device that backs up its LAPS password to on-premises Active Directory shows here as missing it in Entra ID';
  return (
    `Microsoft Graph gives a device's join type only in its beta version, which this app does not read here: ${hybrid}, and a Microsoft Entra registered device, which Windows LAPS does not support, ` +
    `as missing its password. ${BETA_COVERAGE_ASK} to tell them apart.`
  );
}
export const HYBRID_JOIN_NOTICE =
  "Microsoft Graph gives a device's join type only in its beta version, which this app does not read here: a hybrid-joined device that escrows its BitLocker key to on-premises Active Directory " +
  `shows here as missing its key in Entra ID. ${BETA_COVERAGE_ASK} to tell hybrid-joined devices apart.`;
export const LAPS_PREREQUISITE_NOTICE = 'Is Windows LAPS enabled in Entra ID device settings? Not a single device has an escrowed local administrator password.';

export function deriveEscrowGaps(records: EscrowRecords, _context: DeriveContext): DerivedReport<EscrowFindingKind> {
  const keysAvailable = records.recoveryKeys.available;
  const lapsAvailable = records.lapsPasswords.available;
  const columns: ReportColumn[] = [
    { key: 'device', label: 'Device', available: true, format: 'text', role: 'name' },
    // A user principal name: room for it on one or two lines, not three (docs/contract.md, "Columns", `address`).
    { key: 'user', label: 'User', available: true, format: 'text', role: 'address' },
    { key: 'lastCheckIn', label: 'Last check-in', available: true, format: 'date' },
    // When the key or password was escrowed, or a word where there is none (`missing`, `not applicable`).
    // A missing key is as loud as its finding (a hybrid-joined device's too: the cell says no key is in Entra ID).
    {
      key: 'recoveryKey',
      label: 'Recovery key',
      available: keysAvailable,
      format: 'date',
      tones: { byValue: { [MISSING]: severityTone(ESCROW_FINDING_KINDS[MISSING_KEY_KIND].severity), [NOT_APPLICABLE]: 'neutral' }, otherwise: 'ok' },
    },
    {
      key: 'lapsPassword',
      label: 'LAPS password',
      available: lapsAvailable,
      format: 'date',
      // Not supported, or maybe in AD: no verdict either way (docs/contract.md, "Columns": neutral).
      tones: {
        byValue: { [MISSING]: severityTone(ESCROW_FINDING_KINDS[MISSING_LAPS_KIND].severity), [LAPS_NOT_SUPPORTED]: 'neutral', [LAPS_MAY_BE_IN_AD]: 'neutral' },
        otherwise: 'ok',
      },
    },
    { key: 'note', label: 'Note', available: true, format: 'text', role: 'wide' },
  ];
  if (records.devices.length === 0) return { state: 'empty', notice: EMPTY_NOTICE, columns, rows: [], findings: [] };

  // Rows by device, in the order the devices came; how many gaps each has decides where it goes. What
  // the load joined while the pages arrived spares looking each device up and making its row here.
  const devices = records.devices;
  const join = joinOf(records);
  const made = join?.takeRows();
  const keys = records.recoveryKeys.available ? records.recoveryKeys.byDevice : undefined;
  const laps = records.lapsPasswords.available ? records.lapsPasswords.byDevice : undefined;
  const rows = made ?? new Array<ReportRow>(devices.length);
  const gapsOf = new Uint8Array(devices.length);
  const findings: FindingDraft<EscrowFindingKind>[] = [];
  const uncheckedSubjects: Array<UncheckedSubject<EscrowFindingKind>> = [];
  for (let index = 0; index < devices.length; index += 1) {
    const device = devices[index]!;
    // The row's note, its parts joined by '. '; most rows have none (75,000 rows on a large tenant).
    let note: string | null = null;
    let recoveryKey: string | null = null;
    let lapsPassword: string | null = null;
    let gaps = 0;
    if (!device.entraDeviceId) note = withNote(note, 'Not registered in Entra ID, so nothing can be escrowed');

    const hybrid = isHybridJoined(device.joinType);
    if (device.cloudPc) note = withNote(note, 'Windows 365 Cloud PC: BitLocker is not supported; Windows 365 encrypts its disks');
    else if (hybrid) note = withNote(note, 'Hybrid joined: its BitLocker key may be escrowed to on-premises Active Directory, which Graph cannot show');
    if (keys) {
      const escrow = join ? join.keyAt(index) : device.entraDeviceId ? keys.get(device.entraDeviceId) : undefined;
      if (escrow?.hasOsVolumeKey) {
        recoveryKey = escrow.osVolumeKeyCreated ?? 'escrowed';
      } else if (device.cloudPc) {
        // Nothing to escrow, so nothing missing: the row says why instead.
        recoveryKey = NOT_APPLICABLE;
      } else {
        recoveryKey = MISSING;
        gaps += 1;
        const kind = hybrid && device.entraDeviceId ? HYBRID_KEY_KIND : MISSING_KEY_KIND;
        const dataOnly = (escrow?.dataVolumeKeys ?? 0) > 0;
        if (dataOnly) note = withNote(note, 'Only data-volume keys are escrowed, none for the operating-system volume');
        findings.push({
          subjectId: device.id,
          subjectName: device.deviceName,
          kind,
          detail: !device.entraDeviceId
            ? 'No BitLocker recovery key can be escrowed: the device is not registered in Entra ID.'
            : hybrid
              ? 'No BitLocker recovery key is escrowed in Entra ID for this hybrid-joined device. Check that on-premises Active Directory holds it, or back it up to Entra ID too.'
              : dataOnly
                ? 'No BitLocker recovery key is escrowed for the operating-system volume (only data-volume keys).'
                : 'No BitLocker recovery key is escrowed in Entra ID for this device.',
        });
      }
    }
    if (laps) {
      // The backup's date (null: backed up, no date), or undefined when there is none.
      const backup = join ? join.lapsAt(index) : device.entraDeviceId && laps.has(device.entraDeviceId) ? laps.get(device.entraDeviceId)! : undefined;
      if (backup !== undefined) {
        lapsPassword = backup ?? 'escrowed';
      } else if (isWorkplaceJoined(device.joinType)) {
        // Nothing can be backed up, so nothing is missing (docs/finding-rules.md, report 4).
        lapsPassword = LAPS_NOT_SUPPORTED;
        note = withNote(note, 'Microsoft Entra registered (workplace joined): Windows LAPS does not support it');
      } else if (hybrid && device.entraDeviceId) {
        // Its password may be in AD instead: what Graph cannot show is unknown, not missing, and an
        // earlier finding about it stays open rather than resolved.
        lapsPassword = LAPS_MAY_BE_IN_AD;
        note = withNote(note, 'Its LAPS password may be backed up to on-premises Active Directory instead of Entra ID (one or the other, never both)');
        uncheckedSubjects.push({ kind: MISSING_LAPS_KIND, subjectId: device.id, ruleKey: '' });
      } else {
        lapsPassword = MISSING;
        gaps += 1;
        findings.push({
          subjectId: device.id,
          subjectName: device.deviceName,
          kind: MISSING_LAPS_KIND,
          detail: !device.entraDeviceId
            ? 'No local administrator password can be escrowed: the device is not registered in Entra ID.'
            : 'No Windows LAPS local administrator password is backed up to Entra ID for this device.',
        });
      }
    }
    // Made with the page where the join made it (escrow-join.ts), else here: the same row, these three cells filled in.
    const row = made ? made[index]! : (rows[index] = deviceRow(device));
    row.recoveryKey = recoveryKey;
    row.lapsPassword = lapsPassword;
    row.note = note;
    gapsOf[index] = gaps;
  }

  const noLapsAtAll = records.lapsPasswords.available && records.lapsPasswords.byDevice.size === 0;
  const keyFindings = findings.some((finding) => finding.kind === MISSING_KEY_KIND);
  const lapsFindings = findings.some((finding) => finding.kind === MISSING_LAPS_KIND);
  const notices = [
    noLapsAtAll ? LAPS_PREREQUISITE_NOTICE : '',
    (keyFindings || lapsFindings) && !records.joinTypeKnown ? joinTypeNotice({ keys: keyFindings, laps: lapsFindings }) : '',
  ].filter(Boolean);
  return {
    state: 'loaded',
    notice: notices.length > 0 ? notices.join(' ') : null,
    columns,
    rows: inGapOrder(rows, gapsOf, nameOrderOf(records)),
    findings,
    ...(uncheckedSubjects.length > 0 ? { uncheckedSubjects } : {}),
  };
}

/** A row's note with one more part, the parts joined by '. '. */
function withNote(note: string | null, part: string): string {
  return note === null ? part : `${note}. ${part}`;
}

/**
 * What the load joined while the pages arrived (escrow-join.ts), when it is of these very devices and
 * escrow maps; else undefined, and each device is looked up here.
 */
function joinOf(records: EscrowRecords): EscrowJoin | undefined {
  const join = records.join;
  if (!join || join.devices !== records.devices || join.size !== records.devices.length) return undefined;
  if (records.recoveryKeys.available && records.recoveryKeys.byDevice !== join.recoveryKeys) return undefined;
  if (records.lapsPasswords.available && records.lapsPasswords.byDevice !== join.lapsPasswords) return undefined;
  return join;
}

/**
 * The devices' name order: the one the load built while the pages arrived (`EscrowRecords.nameOrder`),
 * when it orders these very devices, else made here.
 */
function nameOrderOf(records: EscrowRecords): readonly number[] {
  const built = records.nameOrder;
  return built && built.size === records.devices.length ? built.indices() : DeviceNameOrder.of(records.devices.map((device) => device.deviceName)).indices();
}

/**
 * Missing both first, then missing either, then complete, each by name (docs/finding-rules.md,
 * report 4): the name order split by gaps, as a stable sort on gaps then name would give it, in one
 * pass, each row written to its place in its group.
 */
function inGapOrder(rows: readonly ReportRow[], gapsOf: Uint8Array, nameOrder: readonly number[]): ReportRow[] {
  let both = 0;
  let either = 0;
  for (const gaps of gapsOf) {
    if (gaps === 2) both += 1;
    else if (gaps === 1) either += 1;
  }
  const next = [0, both, both + either];
  const ordered = new Array<ReportRow>(rows.length);
  for (const index of nameOrder) ordered[next[2 - gapsOf[index]!]!++] = rows[index]!;
  return ordered;
}
