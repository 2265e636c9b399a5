/** Report 4's Graph reads (the managed devices beside the BitLocker recovery key and LAPS password lists, metadata only), kept to the fields `derive` reads. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { CLIENT_NAME, CLIENT_VERSION } from '../../graph/graph-reader.js';
import type { GraphReader } from '../../graph/graph-reader.js';
import { GraphError } from '../../graph/graph-error.js';
import { readFilteredOrWhole } from '../../graph/filtered-read.js';
import { asString, entraDeviceId, timestampText } from '../graph-values.js';
import type { LoadContext } from '../report-model.js';
import { loadSideBySide } from '../side-by-side.js';
import { betaTwinOf, selectOf } from '../../graph/upstream-read.js';
import { ESCROW_DEVICES_READ, LAPS_PASSWORDS_READ, RECOVERY_KEYS_READ } from './reads.js';
import type { DEVICE_FIELDS, LAPS_FIELDS } from './reads.js';
import type { DeviceNameOrder } from './name-order.js';
import { EscrowJoin } from './escrow-join.js';
import { scopeTagsCell } from '../../viewer-scope/scope-tag-ids.js';
import type { RecoveryKeyEscrow, WindowsDevice } from './device-records.js';

export type { RecoveryKeyEscrow, WindowsDevice } from './device-records.js';

/** An escrow source: its records, or "not granted" (the specification's n/a column). */
export type EscrowSource<T> = { available: true; byDevice: Map<string, T> } | { available: false; error: GraphError };

export interface EscrowRecords {
  devices: WindowsDevice[];
  /**
   * The devices' names in order, built while their pages arrived so that little is left after the
   * last one (docs/performance.md); `derive` makes it itself when absent or not of these devices.
   */
  nameOrder?: DeviceNameOrder;
  /**
   * The devices tied to their escrow and their rows made while the pages arrived (escrow-join.ts);
   * `derive` looks each device up itself when absent or not of these very devices and maps.
   */
  join?: EscrowJoin;
  /**
   * Whether devices were read with their join type (`/beta` under complete coverage), so hybrid-joined
   * ones can be told apart; not when they were read on beta for their scope tags only.
   */
  joinTypeKnown: boolean;
  recoveryKeys: EscrowSource<RecoveryKeyEscrow>;
  /** Last backup time of the local administrator password, by Entra device id. */
  lapsPasswords: EscrowSource<string | null>;
}

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
 * Microsoft Entra registered ("workplace joined"), as beta's `joinType` names it (`azureADRegistered`,
 * learn.microsoft.com/graph/api/resources/intune-devices-jointype). Windows LAPS does not support such
 * devices: "Devices that are workplace-joined (WPJ) aren't supported by Intune for LAPS"
 * (learn.microsoft.com/mem/intune/protect/windows-laps-overview, "Active Directory support"), whose
 * cloud backup lists Microsoft Entra join and hybrid join only.
 */
export function isWorkplaceJoined(joinType: string | null): boolean {
  return joinType === 'azureADRegistered';
}

/**
 * `volumeType` arrives as the member name or its number (1 is the operating-system volume). A key
 * without one counts as the operating-system volume's (docs/finding-rules.md, report 4): when in doubt, no finding.
 */
export function isOperatingSystemVolume(volumeType: unknown): boolean {
  return volumeType === 'operatingSystemVolume' || volumeType === 1 || volumeType === '1' || volumeType === undefined || volumeType === null;
}

type SelectedDevice = Pick<Graph.ManagedDevice, (typeof DEVICE_FIELDS)[number]> & Pick<Beta.ManagedDevice, 'joinType' | 'roleScopeTagIds'>;

/**
 * Only Windows devices are asked for (docs/finding-rules.md, report 4). Graph answers this filter on
 * both versions (microsoft-graph-explorer-v4#3125), but a filter is a hint: Intune has ignored
 * filters it does not support (microsoft-graph-docs-contrib#235) and answered `ne` as `eq`
 * (microsoft-graph-docs#15693), so `isWindows` still checks every device that comes back.
 */
export const WINDOWS_FILTER = "operatingSystem eq 'Windows'";

export async function loadEscrow({ graph, onProgress }: LoadContext): Promise<EscrowRecords> {
  const progress = (source: string, records: number) => onProgress?.(source, records);
  // The join type and the scope tags are beta properties: both read there when complete coverage is
  // asked for; with the viewer scope on (and default coverage) the devices are read there too, with
  // the /v1.0 read's fields and their tags only, so that the report covers and finds what it does on
  // /v1.0 and each row carries its device's tags (docs/finding-rules.md, "Viewer scope").
  const forScopeTags = !graph.betaCoverage && graph.scopeTags === true;
  const devicesPath = forScopeTags ? betaTwinOf(ESCROW_DEVICES_READ.path) : graph.coveragePath(ESCROW_DEVICES_READ.path);
  const onBeta = devicesPath.startsWith('/beta/');
  const $select = forScopeTags ? ESCROW_DEVICES_READ.scopeTagsSelect.join(',') : onBeta ? ESCROW_DEVICES_READ.betaSelect.join(',') : selectOf(ESCROW_DEVICES_READ);
  // Both escrow lists are folded into these maps as their pages come; the devices read so far are
  // tied to them as both arrive (escrow-join.ts). A fresh read of the devices starts a fresh join.
  const keysByDevice = new Map<string, RecoveryKeyEscrow>();
  const lapsByDevice = new Map<string, string | null>();
  let join: EscrowJoin | undefined;
  const readDevicePages = async (query: Record<string, string>, signal: AbortSignal) => {
    // Each page's names sorted and its rows made as it arrives, while the other lists' pages are awaited.
    const pageJoin = new EscrowJoin(keysByDevice, lapsByDevice);
    join = pageJoin;
    let seen = 0;
    for await (const page of graph.pages<SelectedDevice>(devicesPath, { query, signal })) {
      seen += page.items.length;
      const windows: WindowsDevice[] = [];
      for (const device of page.items) {
        if (!isWindows(device.operatingSystem)) continue;
        const windowsDevice: WindowsDevice = {
          id: String(device.id),
          deviceName: device.deviceName ?? String(device.id),
          userPrincipalName: asString(device.userPrincipalName) || null,
          lastSyncDateTime: timestampText(device.lastSyncDateTime),
          entraDeviceId: entraDeviceId(device.azureADDeviceId),
          joinType: asString(device.joinType) || null,
          cloudPc: isCloudPc(device.model),
        };
        // Only where they were asked for: a /v1.0 device carries no scope tags, not even null.
        if (onBeta) windowsDevice.scopeTags = scopeTagsCell(device.roleScopeTagIds);
        windows.push(windowsDevice);
      }
      pageJoin.addDevices(windows);
      progress('managedDevices', seen);
    }
    return pageJoin;
  };
  // A tenant that refuses the filter is read whole, and filtered here (`isWindows`), as report 3 reads
  // its baseline templates; any other failure is the load's.
  const readDevices = (signal: AbortSignal) =>
    readFilteredOrWhole((filter) => readDevicePages(filter === undefined ? { $select } : { $filter: filter, $select }, signal), WINDOWS_FILTER, signal);
  const foldKey = (byDevice: Map<string, RecoveryKeyEscrow>, key: Graph.BitlockerRecoveryKey) => foldRecoveryKey(byDevice, key, join);
  const foldLaps = (byDevice: Map<string, string | null>, info: LapsInfo) => foldLapsPassword(byDevice, info, join);

  // Both escrow lists run beside the device list; a 403 on one of them is its n/a column.
  const [devicesJoin, recoveryKeys, lapsPasswords] = await loadSideBySide<[EscrowJoin, EscrowSource<RecoveryKeyEscrow>, EscrowSource<string | null>]>([
    readDevices,
    // No `$select` on the key list: the report uses each of its four non-secret properties, and its
    // page documents `$filter` only (learn.microsoft.com/graph/api/bitlocker-list-recoverykeys).
    (signal) => escrowSource(graph, RECOVERY_KEYS_READ.path, {}, keysByDevice, foldKey, (count) => progress('recoveryKeys', count), signal),
    (signal) =>
      escrowSource(
        graph,
        LAPS_PASSWORDS_READ.path,
        { $select: selectOf(LAPS_PASSWORDS_READ) },
        lapsByDevice,
        foldLaps,
        (count) => progress('deviceLocalCredentials', count),
        signal,
      ),
  ]);
  if (!recoveryKeys.available && !lapsPasswords.available) {
    // Neither source granted: there is nothing to report, and the load error names the 403.
    throw recoveryKeys.error;
  }
  return {
    devices: devicesJoin.devices,
    nameOrder: devicesJoin.nameOrder,
    join: devicesJoin,
    joinTypeKnown: graph.betaCoverage,
    recoveryKeys,
    lapsPasswords,
  };
}

type LapsInfo = Pick<Graph.DeviceLocalCredentialInfo, (typeof LAPS_FIELDS)[number]>;

/**
 * One recovery key folded into its device's entry: one entry a device, made with its first key and
 * updated in place by the later ones, so the join (told of each new entry) holds the very object a
 * look-up after the last page would find.
 */
export function foldRecoveryKey(byDevice: Map<string, RecoveryKeyEscrow>, key: Graph.BitlockerRecoveryKey, join?: EscrowJoin): void {
  const deviceId = entraDeviceId(key.deviceId);
  if (!deviceId) return;
  let entry = byDevice.get(deviceId);
  if (entry === undefined) {
    entry = { hasOsVolumeKey: false, osVolumeKeyCreated: null, dataVolumeKeys: 0 };
    byDevice.set(deviceId, entry);
    join?.keyArrived(deviceId, entry);
  }
  if (isOperatingSystemVolume(key.volumeType)) {
    entry.hasOsVolumeKey = true;
    const created = timestampText(key.createdDateTime);
    if (created && (!entry.osVolumeKeyCreated || created > entry.osVolumeKeyCreated)) entry.osVolumeKeyCreated = created;
  } else {
    entry.dataVolumeKeys += 1;
  }
}

/** One LAPS record folded in: its device's last backup date (a later record of the same device replaces it), the join told. */
export function foldLapsPassword(byDevice: Map<string, string | null>, info: LapsInfo, join?: EscrowJoin): void {
  const deviceId = entraDeviceId(info.id);
  if (!deviceId) return;
  const lastBackup = timestampText(info.lastBackupDateTime);
  byDevice.set(deviceId, lastBackup);
  join?.lapsArrived(deviceId, lastBackup);
}

/**
 * Reads one escrow list page by page, folding each record into a per-device map as it arrives and
 * keeping only metadata: the list never carries `key` or `credentials` unless `$select` names them,
 * which no query here does (and the client refuses), and nothing here would keep them if it did.
 */
async function escrowSource<Item, Value>(
  graph: GraphReader,
  path: string,
  query: Record<string, string>,
  byDevice: Map<string, Value>,
  fold: (byDevice: Map<string, Value>, item: Item) => void,
  progress: (count: number) => void,
  signal: AbortSignal,
): Promise<EscrowSource<Value>> {
  let count = 0;
  try {
    for await (const page of graph.pages<Item>(path, { query, headers: ESCROW_HEADERS, signal })) {
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
