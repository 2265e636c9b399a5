/** Report 4's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { compareText } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { DeriveContext, DerivedReport, FindingDraft, ReportColumn, ReportRow } from '../report-model.js';
import { severityTone } from '../report-model.js';
import { ESCROW_FINDING_KINDS, HYBRID_KEY_KIND, MISSING_KEY_KIND, MISSING_LAPS_KIND } from './finding-kinds.js';
import type { EscrowFindingKind } from './finding-kinds.js';
import { isHybridJoined } from './load.js';
import type { EscrowRecords } from './load.js';
import { BETA_COVERAGE_ASK } from '../beta-coverage.js';

export const EMPTY_NOTICE = 'Intune returned no Windows devices.';

/** The words an escrow cell holds where there is no date: nothing escrowed, or nothing to escrow (a Cloud PC). */
const MISSING = 'missing';
const NOT_APPLICABLE = 'not applicable';
export const HYBRID_JOIN_NOTICE =
  'Read on /v1.0, Graph does not give the join type: a hybrid-joined device that escrows its BitLocker key to on-premises Active Directory ' +
  `shows here as missing its key in Entra ID. ${BETA_COVERAGE_ASK} to tell hybrid-joined devices apart.`;
export const LAPS_PREREQUISITE_NOTICE = 'Is Windows LAPS enabled in Entra ID device settings? Not a single device has an escrowed local administrator password.';

export function deriveEscrowGaps(records: EscrowRecords, _context: DeriveContext): DerivedReport<EscrowFindingKind> {
  const keysAvailable = records.recoveryKeys.available;
  const lapsAvailable = records.lapsPasswords.available;
  const columns: ReportColumn[] = [
    { key: 'device', label: 'Device', available: true, format: 'text', role: 'name' },
    { key: 'user', label: 'User', available: true, format: 'text' },
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
      tones: { byValue: { [MISSING]: severityTone(ESCROW_FINDING_KINDS[MISSING_LAPS_KIND].severity) }, otherwise: 'ok' },
    },
    { key: 'note', label: 'Note', available: true, format: 'text', role: 'wide' },
  ];
  if (records.devices.length === 0) return { state: 'empty', notice: EMPTY_NOTICE, columns, rows: [], findings: [] };

  const rows: Array<ReportRow & { gaps: number }> = [];
  const findings: FindingDraft<EscrowFindingKind>[] = [];
  for (const device of records.devices) {
    const notes: string[] = [];
    let recoveryKey: string | null = null;
    let lapsPassword: string | null = null;
    let gaps = 0;
    const subject = { subjectId: device.id, subjectName: device.deviceName };
    if (!device.entraDeviceId) notes.push('Not registered in Entra ID, so nothing can be escrowed');

    const hybrid = isHybridJoined(device.joinType);
    if (device.cloudPc) notes.push('Windows 365 Cloud PC: BitLocker is not supported; Windows 365 encrypts its disks');
    else if (hybrid) notes.push('Hybrid joined: its BitLocker key may be escrowed to on-premises Active Directory, which Graph cannot show');
    if (records.recoveryKeys.available) {
      const escrow = device.entraDeviceId ? records.recoveryKeys.byDevice.get(device.entraDeviceId) : undefined;
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
        if (dataOnly) notes.push('Only data-volume keys are escrowed, none for the operating-system volume');
        findings.push({
          ...subject,
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
    if (records.lapsPasswords.available) {
      const hasPassword = device.entraDeviceId ? records.lapsPasswords.byDevice.has(device.entraDeviceId) : false;
      if (hasPassword) {
        lapsPassword = records.lapsPasswords.byDevice.get(device.entraDeviceId!) ?? 'escrowed';
      } else {
        lapsPassword = MISSING;
        gaps += 1;
        findings.push({
          ...subject,
          kind: MISSING_LAPS_KIND,
          detail: !device.entraDeviceId
            ? 'No local administrator password can be escrowed: the device is not registered in Entra ID.'
            : 'No Windows LAPS local administrator password is backed up to Entra ID for this device.',
        });
      }
    }
    rows.push({
      id: device.id,
      device: device.deviceName,
      user: device.userPrincipalName,
      lastCheckIn: device.lastSyncDateTime,
      recoveryKey,
      lapsPassword,
      note: notes.join('. ') || null,
      link: intuneLinks.managedDevice(device.id),
      gaps,
    });
  }
  // Missing both first, then missing either, then complete (docs/finding-rules.md, report 4).
  rows.sort((a, b) => b.gaps - a.gaps || compareText(String(a.device), String(b.device)));

  const noLapsAtAll = records.lapsPasswords.available && records.lapsPasswords.byDevice.size === 0;
  const keyFindings = findings.some((finding) => finding.kind === MISSING_KEY_KIND);
  const notices = [noLapsAtAll ? LAPS_PREREQUISITE_NOTICE : '', keyFindings && !records.joinTypeKnown ? HYBRID_JOIN_NOTICE : ''].filter(Boolean);
  return {
    state: 'loaded',
    notice: notices.length > 0 ? notices.join(' ') : null,
    columns,
    rows: rows.map(({ gaps: _gaps, ...row }) => row),
    findings,
  };
}
