import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { CLIENT_NAME, CLIENT_VERSION } from '../graph/graph-reader.js';
import type { GraphReader } from '../graph/graph-reader.js';
import { GraphError } from '../graph/graph-error.js';
import { asString, compareText, entraDeviceId, timestampText } from './graph-values.js';
import { intuneLinks } from './intune-links.js';
import type { FindingKindTable } from '../findings/finding-kinds.js';
import type { DeriveContext, DerivedReport, FindingDraft, LoadContext, ReportColumn, ReportDefinition, ReportRow } from './report-model.js';
import { INITIALIZING_TEXT, severityTone } from './report-model.js';
import { loadSideBySide } from './side-by-side.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
const ESCROW_FINDING_KINDS = {
  'missing-recovery-key': {
    label: 'Devices without an escrowed BitLocker key',
    severity: 'high',
    remediation: {
      why: 'If the device goes into BitLocker recovery (a firmware or TPM change, too many PIN attempts) and Microsoft Entra ID holds no key for its system drive, IT has nothing to unlock it with: unless the user saved the key elsewhere, the data on it is lost. A device not registered in Entra ID cannot escrow there at all.',
      steps: [
        "Open the device from the finding's link and check its join type: a device that is not Microsoft Entra joined or hybrid joined cannot escrow a key to Entra ID, so fix its registration first.",
        'Make sure a BitLocker policy that requires escrow reaches the device: in Endpoint security > Disk encryption, a BitLocker profile with Save BitLocker recovery information to Microsoft Entra ID and Store recovery information in Microsoft Entra ID before enabling BitLocker turned on, assigned to a group that includes the device.',
        "Those settings act when encryption starts, so a drive already encrypted keeps its unescrowed key. For such a device, use the BitLocker key rotation action on the device's page (recovery password rotation must be on in the policy), or run BackupToAAD-BitLockerKeyProtector on it through a platform script or a Remediation.",
        "Confirm that the device's Recovery keys page in Intune, or Devices > Monitor > Encryption report, now lists a key for the operating system drive. The key ID and date are enough; don't open the key.",
      ],
      sources: [
        { title: 'BitLocker CSP (recovery options, settings apply when encryption starts)', url: 'https://learn.microsoft.com/en-us/windows/client-management/mdm/bitlocker-csp' },
        {
          title: 'Configure BitLocker policies using Microsoft Intune',
          url: 'https://learn.microsoft.com/en-us/training/modules/implement-device-encryption/03-configure-bitlocker',
        },
        {
          title: 'Manage BitLocker recovery keys and user self-service options',
          url: 'https://learn.microsoft.com/en-us/training/modules/implement-device-encryption/04-manage-bitlocker-recovery',
        },
        { title: 'BackupToAAD-BitLockerKeyProtector', url: 'https://learn.microsoft.com/en-us/powershell/module/bitlocker/backuptoaad-bitlockerkeyprotector' },
      ],
    },
  },
  /** A hybrid-joined device with no key in Entra ID: its key may be in Active Directory, which Graph cannot show. */
  'recovery-key-not-in-entra': {
    label: 'Hybrid-joined devices without a BitLocker key in Entra ID',
    severity: 'medium',
    remediation: {
      why: "The device is hybrid joined and Microsoft Entra ID holds no recovery key for it. Its key may be in on-premises Active Directory, which this report can't see; if it is in neither, a BitLocker recovery leaves the device locked, and a key held only in AD is out of reach of cloud helpdesk tools and user self-service.",
      steps: [
        "Check AD DS for a key without displaying it: from a host with the Active Directory PowerShell module, Get-ADObject -SearchBase '<the computer object's distinguished name>' -Filter \"objectClass -eq 'msFVE-RecoveryInformation'\" -Properties whenCreated lists the device's recovery entries and their dates only.",
        'To escrow to Entra ID as well, turn on Save BitLocker recovery information to Microsoft Entra ID in the BitLocker profile that reaches the device (Endpoint security > Disk encryption); hybrid-joined devices can back up to both AD DS and Entra ID.',
        "The policy acts when encryption starts. For a drive already encrypted, run BackupToAAD-BitLockerKeyProtector on the device through a platform script or a Remediation, or use the BitLocker key rotation action on the device's page.",
        'If the key is in neither directory, treat the device as one without an escrowed key and fix escrow before it next enters recovery.',
      ],
      sources: [
        {
          title: 'BitLocker CSP (recovery options for Entra joined and hybrid joined devices)',
          url: 'https://learn.microsoft.com/en-us/windows/client-management/mdm/bitlocker-csp',
        },
        { title: 'BackupToAAD-BitLockerKeyProtector', url: 'https://learn.microsoft.com/en-us/powershell/module/bitlocker/backuptoaad-bitlockerkeyprotector' },
        {
          title: 'Manage BitLocker recovery keys and user self-service options',
          url: 'https://learn.microsoft.com/en-us/training/modules/implement-device-encryption/04-manage-bitlocker-recovery',
        },
      ],
    },
  },
  'missing-laps-password': {
    label: 'Devices without an escrowed LAPS password',
    severity: 'medium',
    remediation: {
      why: "Without a LAPS record in Microsoft Entra ID, the device's local administrator password is unmanaged: often the same on many devices, never rotated, and a ready path for lateral movement. IT also has no way into the device when no one can sign in to it.",
      steps: [
        'In the Microsoft Entra admin center, Devices > Device settings, check that Enable Microsoft Entra Local Administrator Password Solution (LAPS) is set to Yes; until it is, Entra ID does not accept the passwords devices back up.',
        'In Intune, Endpoint security > Account protection, make sure a Local admin password solution (Windows LAPS) profile with Backup Directory set to Microsoft Entra ID is assigned to a group that includes the device.',
        'Check the device: it needs a Windows build that includes Windows LAPS (the April 2023 update or later) and must be Microsoft Entra joined or hybrid joined; Microsoft Entra registered devices are not supported.',
        "For a hybrid-joined device, check the profile's Backup Directory first: a device that backs up to Active Directory keeps its password there, and Entra ID has no record by design.",
        "To force a backup once the policy applies, use Rotate local admin password on the device's page in Intune, then confirm the last backup time there; there is no need to view the password.",
      ],
      sources: [
        { title: 'Manage Windows LAPS policy with Microsoft Intune', url: 'https://learn.microsoft.com/mem/intune/protect/windows-laps-policy' },
        {
          title: 'Windows Local Administrator Password Solution in Microsoft Entra ID',
          url: 'https://learn.microsoft.com/en-us/azure/active-directory/devices/howto-manage-local-admin-passwords',
        },
        {
          title: 'localAdminPasswordSettings resource type (LAPS is off by default)',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/localadminpasswordsettings?view=graph-rest-1.0',
        },
        {
          title: 'Configure policy settings for Windows LAPS (BackupDirectory)',
          url: 'https://learn.microsoft.com/en-us/windows-server/identity/laps/laps-management-policy-settings',
        },
      ],
    },
  },
} as const satisfies FindingKindTable;
type EscrowFindingKind = keyof typeof ESCROW_FINDING_KINDS;

export interface WindowsDevice {
  id: string;
  deviceName: string;
  userPrincipalName: string | null;
  lastSyncDateTime: string | null;
  /** Lower-case Entra device id; null when the device is not registered in Entra ID. */
  entraDeviceId: string | null;
  /** `managedDevice.joinType`; null where Graph did not say (it is a beta property, absent on /v1.0). */
  joinType: string | null;
  /** A Windows 365 Cloud PC, which has no BitLocker to escrow a key for. */
  cloudPc: boolean;
}

/** What is escrowed for one Entra device id: dates only, never a key or a password. */
export interface RecoveryKeyEscrow {
  hasOsVolumeKey: boolean;
  /** When the newest operating-system-volume key was escrowed, if Graph said. */
  osVolumeKeyCreated: string | null;
  dataVolumeKeys: number;
}

/** An escrow source: its records, or "not granted" (the specification's n/a column). */
export type EscrowSource<T> = { available: true; byDevice: Map<string, T> } | { available: false; error: GraphError };

export interface EscrowRecords {
  devices: WindowsDevice[];
  /** Whether devices were read where Graph gives their join type (`/beta`), so hybrid-joined ones can be told apart. */
  joinTypeKnown: boolean;
  recoveryKeys: EscrowSource<RecoveryKeyEscrow>;
  /** Last backup time of the local administrator password, by Entra device id. */
  lapsPasswords: EscrowSource<string | null>;
}

export const EMPTY_NOTICE = 'Intune returned no Windows devices.';

const MISSING_KEY_KIND = 'missing-recovery-key' satisfies EscrowFindingKind;
const HYBRID_KEY_KIND = 'recovery-key-not-in-entra' satisfies EscrowFindingKind;
const MISSING_LAPS_KIND = 'missing-laps-password' satisfies EscrowFindingKind;
/** The words an escrow cell holds where there is no date: nothing escrowed, or nothing to escrow (a Cloud PC). */
const MISSING = 'missing';
const NOT_APPLICABLE = 'not applicable';
export const HYBRID_JOIN_NOTICE =
  'Read on /v1.0, Graph does not give the join type: a hybrid-joined device that escrows its BitLocker key to on-premises Active Directory ' +
  'shows here as missing its key in Entra ID. Set GRAPH_BETA_COVERAGE=true to tell hybrid-joined devices apart.';
export const LAPS_PREREQUISITE_NOTICE = 'Is Windows LAPS enabled in Entra ID device settings? Not a single device has an escrowed local administrator password.';

/**
 * The LAPS and BitLocker list pages document `User-Agent` as required and ask callers to name
 * themselves in `ocp-client-name` / `ocp-client-version`
 * (learn.microsoft.com/graph/api/directory-list-devicelocalcredentials,
 * learn.microsoft.com/graph/api/bitlockerrecoverykey-list). The client always sends a User-Agent.
 */
const ESCROW_HEADERS = { 'ocp-client-name': CLIENT_NAME, 'ocp-client-version': CLIENT_VERSION };

/** Windows in any case, as Intune's free-text `operatingSystem` may spell it (docs/finding-rules.md, report 4). */
export function isWindows(operatingSystem: unknown): boolean {
  return typeof operatingSystem === 'string' && operatingSystem.trim().toLowerCase() === 'windows';
}

/**
 * Windows 365 gives its Cloud PCs the model "Cloud PC <edition> <size>" (e.g. "Cloud PC Enterprise
 * 2vCPU/8GB/128GB"), which Windows 365 assignment filters match with `device.model -startsWith
 * "Cloud PC"`. BitLocker is not supported on Cloud PCs; the service encrypts their disks at rest
 * (learn.microsoft.com/windows-365/enterprise/encryption), so there is no recovery key to escrow.
 */
export function isCloudPc(model: unknown): boolean {
  return typeof model === 'string' && /^cloud pc\b/i.test(model.trim());
}

/** `joinType` as Graph's beta `managedDevice` gives it (learn.microsoft.com/graph/api/resources/intune-devices-jointype). */
export function isHybridJoined(joinType: string | null): boolean {
  return joinType === 'hybridAzureADJoined';
}

/**
 * `volumeType` arrives as the member name or its number (1 is the operating-system volume). A key
 * without one counts as the operating-system volume's (docs/finding-rules.md, report 4): when in doubt, no finding.
 */
export function isOperatingSystemVolume(volumeType: unknown): boolean {
  return volumeType === 'operatingSystemVolume' || volumeType === 1 || volumeType === '1' || volumeType === undefined || volumeType === null;
}

async function loadEscrow({ graph, onProgress }: LoadContext): Promise<EscrowRecords> {
  const progress = (source: string, records: number) => onProgress?.(source, records);
  // The join type is a beta property: read there only when complete coverage is asked for.
  const devicesPath = graph.coveragePath('/v1.0/deviceManagement/managedDevices');
  const readDevices = async (signal: AbortSignal) => {
    const devices: WindowsDevice[] = [];
    let seen = 0;
    for await (const page of graph.pages<Graph.ManagedDevice & Pick<Beta.ManagedDevice, 'joinType'>>(devicesPath, { signal })) {
      seen += page.items.length;
      for (const device of page.items) {
        if (!isWindows(device.operatingSystem)) continue;
        devices.push({
          id: String(device.id),
          deviceName: device.deviceName ?? String(device.id),
          userPrincipalName: asString(device.userPrincipalName) || null,
          lastSyncDateTime: timestampText(device.lastSyncDateTime),
          entraDeviceId: entraDeviceId(device.azureADDeviceId),
          joinType: asString(device.joinType) || null,
          cloudPc: isCloudPc(device.model),
        });
      }
      progress('managedDevices', seen);
    }
    return devices;
  };
  const foldRecoveryKey = (byDevice: Map<string, RecoveryKeyEscrow>, key: Graph.BitlockerRecoveryKey) => {
    const deviceId = entraDeviceId(key.deviceId);
    if (!deviceId) return;
    const entry = byDevice.get(deviceId) ?? { hasOsVolumeKey: false, osVolumeKeyCreated: null, dataVolumeKeys: 0 };
    if (isOperatingSystemVolume(key.volumeType)) {
      entry.hasOsVolumeKey = true;
      const created = timestampText(key.createdDateTime);
      if (created && (!entry.osVolumeKeyCreated || created > entry.osVolumeKeyCreated)) entry.osVolumeKeyCreated = created;
    } else {
      entry.dataVolumeKeys += 1;
    }
    byDevice.set(deviceId, entry);
  };
  const foldLapsPassword = (byDevice: Map<string, string | null>, info: Graph.DeviceLocalCredentialInfo) => {
    const deviceId = entraDeviceId(info.id);
    if (deviceId) byDevice.set(deviceId, timestampText(info.lastBackupDateTime));
  };

  // Both escrow lists run beside the device list; a 403 on one of them is its n/a column.
  const [devices, recoveryKeys, lapsPasswords] = await loadSideBySide<[WindowsDevice[], EscrowSource<RecoveryKeyEscrow>, EscrowSource<string | null>]>([
    readDevices,
    (signal) => escrowSource(graph, '/v1.0/informationProtection/bitlocker/recoveryKeys', foldRecoveryKey, (count) => progress('recoveryKeys', count), signal),
    (signal) => escrowSource(graph, '/v1.0/directory/deviceLocalCredentials', foldLapsPassword, (count) => progress('deviceLocalCredentials', count), signal),
  ]);
  if (!recoveryKeys.available && !lapsPasswords.available) {
    // Neither source granted: there is nothing to report, and the load error names the 403.
    throw recoveryKeys.error;
  }
  return { devices, joinTypeKnown: graph.betaCoverage, recoveryKeys, lapsPasswords };
}

/**
 * Reads one escrow list page by page, folding each record into a per-device map as it arrives and
 * keeping only metadata: the list never carries `key` or `credentials` without `$select`, and
 * nothing here would keep them if it did.
 */
async function escrowSource<Item, Value>(
  graph: GraphReader,
  path: string,
  fold: (byDevice: Map<string, Value>, item: Item) => void,
  progress: (count: number) => void,
  signal: AbortSignal,
): Promise<EscrowSource<Value>> {
  const byDevice = new Map<string, Value>();
  let count = 0;
  try {
    for await (const page of graph.pages<Item>(path, { headers: ESCROW_HEADERS, signal })) {
      for (const item of page.items) fold(byDevice, item);
      count += page.items.length;
      progress(count);
    }
  } catch (error) {
    // Only this source's own 403 is "not granted"; a failure elsewhere that stopped it is not.
    if (error instanceof GraphError && error.status === 403 && !signal.aborted) return { available: false, error };
    throw error;
  }
  return { available: true, byDevice };
}

export function deriveEscrowGaps(records: EscrowRecords, _context: DeriveContext): DerivedReport<EscrowFindingKind> {
  const keysAvailable = records.recoveryKeys.available;
  const lapsAvailable = records.lapsPasswords.available;
  const columns: ReportColumn[] = [
    { key: 'device', label: 'Device', available: true, format: 'text' },
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
    { key: 'note', label: 'Note', available: true, format: 'text' },
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

export const escrowGapsReport: ReportDefinition<EscrowRecords, EscrowFindingKind> = {
  id: 'escrow-gaps',
  title: 'Windows LAPS & BitLocker Escrow Gaps',
  summary:
    'Windows devices without an escrowed BitLocker recovery key or local administrator password, devices missing either listed first. Reads metadata only: this report never reads a password or a recovery key.',
  // Only the ReadBasic permissions: the Read.All ones would expose the secrets themselves.
  permissions: ['DeviceLocalCredential.ReadBasic.All', 'BitlockerKey.ReadBasic.All', 'DeviceManagementManagedDevices.Read.All'],
  prerequisites: ['An Intune licence for the tenant.', 'Local administrator password management (Windows LAPS) enabled in Entra ID device settings.'],
  beta: false,
  navigationLabel: 'LAPS & BitLocker escrow',
  botNames: ['escrow gaps', 'escrow', 'laps', 'bitlocker', 'laps and bitlocker', 'laps and bitlocker escrow', 'laps and bitlocker escrow gaps'],
  botTopics: [
    'recovery key',
    'recovery keys',
    'escrowed',
    'local admin password',
    'admin password',
    'local administrator password',
    'encryption',
    'encrypted',
    'keys',
    'passwords',
    'bitlocker key',
    'bitlocker keys',
  ],
  botDescription: 'Windows devices without an escrowed BitLocker key or LAPS password',
  tables: { '': 'Windows devices' },
  // The specification names no placeholder of its own for report 4's fetch: its status line stays.
  pending: { starting: INITIALIZING_TEXT, fetching: INITIALIZING_TEXT },
  charts: [],
  findingKinds: ESCROW_FINDING_KINDS,
  // Each escrow source column checks its own kinds: an n/a column checks nothing.
  optionalSources: [
    { column: 'recoveryKey', findingKinds: [MISSING_KEY_KIND, HYBRID_KEY_KIND] },
    { column: 'lapsPassword', findingKinds: [MISSING_LAPS_KIND] },
  ],
  load: loadEscrow,
  derive: deriveEscrowGaps,
};
