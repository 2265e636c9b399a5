/**
 * Report 4's records of one device and of its escrowed key, as the load trims them and the join reads
 * them: apart from both, so that neither imports the other.
 */

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
  /**
   * The device's `roleScopeTagIds` as its row's cell (`scopeTagsCell`): absent when the devices were
   * read on `/v1.0`, which has no scope tags (reads.ts: they are read on beta under complete coverage
   * or with the viewer scope on); null when beta sent none. Either is "not known".
   */
  scopeTags?: string | null;
}

/** What is escrowed for one Entra device id: dates only, never a key or a password. */
export interface RecoveryKeyEscrow {
  hasOsVolumeKey: boolean;
  /** When the newest operating-system-volume key was escrowed, if Graph said. */
  osVolumeKeyCreated: string | null;
  dataVolumeKeys: number;
}
