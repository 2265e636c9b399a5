/**
 * Report 4's devices joined to their escrow while the three lists' pages arrive (docs/performance.md,
 * "Report 4 while its pages arrive"), so that after the last page `derive` neither looks a device up
 * in the escrow maps nor makes its row: each device's row is made, less its escrow cells and note,
 * when its page comes, and each device is tied to what is escrowed for it as soon as both are known,
 * whichever came first. What it ties is exactly what looking each device up after the last page
 * would find: a recovery key entry is one object, updated in place as more keys of the device come
 * (`load.ts`, `foldRecoveryKey`); a LAPS backup date is kept as it came, and a second record for the
 * same device, which would replace it, makes `derive` look the dates up after all. Pure: no I/O.
 */

import { intuneLinks } from '../intune-links.js';
import type { ReportRow } from '../report-model.js';
import type { RecoveryKeyEscrow, WindowsDevice } from './load.js';
import { DeviceNameOrder } from './name-order.js';

/** Devices waiting for escrow of their Entra device id: one index, or several when devices share the id. */
type Waiting = Map<string, number | number[]>;

export class EscrowJoin {
  /** The devices in the order they came; the records' `devices`. */
  readonly devices: WindowsDevice[] = [];
  /** Their names in order, built page by page (name-order.ts). */
  readonly nameOrder = new DeviceNameOrder();
  /** Each device's row, escrow cells and note still empty; handed to one `derive` only (`takeRows`). */
  private rows: ReportRow[] | undefined = [];
  /** The recovery key entry of each device, once both are known. */
  private readonly keyOf: Array<RecoveryKeyEscrow | undefined> = [];
  /** The LAPS backup date of each device, once both are known (null: backed up, date unknown); undefined while none is known. */
  private readonly lapsOf: Array<string | null | undefined> = [];
  private readonly waitingForKey: Waiting = new Map();
  private readonly waitingForLaps: Waiting = new Map();
  /** A device's LAPS record came twice: the dates kept may be stale, so `derive` looks them up. */
  private lapsReplaced = false;

  /**
   * @param recoveryKeys the map the recovery key list is folded into (`keyArrived` told of each new entry)
   * @param lapsPasswords the map the LAPS list is folded into (`lapsArrived` told of each record)
   */
  constructor(
    readonly recoveryKeys: ReadonlyMap<string, RecoveryKeyEscrow>,
    readonly lapsPasswords: ReadonlyMap<string, string | null>,
  ) {}

  /** How many devices it holds. */
  get size(): number {
    return this.devices.length;
  }

  /** The next page's Windows devices: their rows made, their names ordered, each tied to its escrow or set to wait for it. */
  addDevices(page: readonly WindowsDevice[]): void {
    if (page.length === 0) return;
    const rows = this.rows;
    for (const device of page) {
      const index = this.devices.length;
      this.devices.push(device);
      rows?.push({
        id: device.id,
        device: device.deviceName,
        user: device.userPrincipalName,
        lastCheckIn: device.lastSyncDateTime,
        recoveryKey: null,
        lapsPassword: null,
        note: null,
        link: intuneLinks.managedDevice(device.id),
      });
      const entraId = device.entraDeviceId;
      if (entraId === null) {
        this.keyOf.push(undefined);
        this.lapsOf.push(undefined);
        continue;
      }
      const key = this.recoveryKeys.get(entraId);
      this.keyOf.push(key);
      if (key === undefined) wait(this.waitingForKey, entraId, index);
      // The map holds a date or null, never undefined: undefined is "no record yet".
      const laps = this.lapsPasswords.get(entraId);
      this.lapsOf.push(laps);
      if (laps === undefined) wait(this.waitingForLaps, entraId, index);
    }
    this.nameOrder.add(page.map((device) => device.deviceName));
  }

  /** A recovery key entry made for `entraId` (its first key): the devices waiting for it are tied to it. */
  keyArrived(entraId: string, entry: RecoveryKeyEscrow): void {
    const waiting = this.waitingForKey.get(entraId);
    if (waiting === undefined) return;
    this.waitingForKey.delete(entraId);
    if (typeof waiting === 'number') this.keyOf[waiting] = entry;
    else for (const index of waiting) this.keyOf[index] = entry;
  }

  /** A LAPS record for `entraId`; `first` when the map held none for it before. */
  lapsArrived(entraId: string, lastBackup: string | null, first: boolean): void {
    if (!first) {
      this.lapsReplaced = true;
      return;
    }
    const waiting = this.waitingForLaps.get(entraId);
    if (waiting === undefined) return;
    this.waitingForLaps.delete(entraId);
    if (typeof waiting === 'number') this.lapsOf[waiting] = lastBackup;
    else for (const index of waiting) this.lapsOf[index] = lastBackup;
  }

  /** The recovery key entry of the device at `index`, as `recoveryKeys.get` of its Entra id gives it now. */
  keyAt(index: number): RecoveryKeyEscrow | undefined {
    return this.keyOf[index];
  }

  /**
   * The LAPS backup of the device at `index`, as `lapsPasswords` holds it now: undefined when there
   * is none (or it has no Entra id), else its date or null.
   */
  lapsAt(index: number): string | null | undefined {
    if (!this.lapsReplaced) return this.lapsOf[index];
    const entraId = this.devices[index]!.entraDeviceId;
    if (entraId === null || !this.lapsPasswords.has(entraId)) return undefined;
    return this.lapsPasswords.get(entraId) ?? null;
  }

  /**
   * The rows made as the pages came, in the devices' order, their escrow cells and note still to
   * fill: to the first caller only, who fills them in; any later `derive` of the same records makes
   * its own, so no report's rows are changed under it.
   */
  takeRows(): ReportRow[] | undefined {
    const rows = this.rows;
    this.rows = undefined;
    return rows && rows.length === this.devices.length ? rows : undefined;
  }
}

function wait(waiting: Waiting, entraId: string, index: number): void {
  const already = waiting.get(entraId);
  if (already === undefined) waiting.set(entraId, index);
  else if (typeof already === 'number') waiting.set(entraId, [already, index]);
  else already.push(index);
}
