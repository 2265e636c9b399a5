/**
 * Report 4's devices joined to their escrow while the three lists' pages arrive (docs/performance.md,
 * "Report 4 while its pages arrive"), so that after the last page `derive` neither looks a device up
 * in the escrow maps nor makes its row: each device's row is made, less its escrow cells and note,
 * when its page comes, and each device is tied to what is escrowed for it as soon as both are known,
 * whichever came first. What it ties is exactly what looking each device up after the last page
 * would find: a recovery key entry is one object, updated in place as more keys of the device come
 * (`load.ts`, `foldRecoveryKey`), and a LAPS backup date is replaced by a later record of the same
 * device as the map's entry is. Pure: no I/O.
 */

import { intuneLinks } from '../intune-links.js';
import type { ReportRow } from '../report-model.js';
import type { RecoveryKeyEscrow, WindowsDevice } from './device-records.js';
import { DeviceNameOrder } from './name-order.js';
import { ROW_SCOPE_TAGS_KEY } from '../../viewer-scope/scope-tag-ids.js';

/** A device's row in report 4, its escrow cells and note left empty for `derive` to fill in. */
export function deviceRow(device: WindowsDevice): ReportRow {
  const row: ReportRow = {
    id: device.id,
    device: device.deviceName,
    user: device.userPrincipalName,
    lastCheckIn: device.lastSyncDateTime,
    recoveryKey: null,
    lapsPassword: null,
    note: null,
    link: intuneLinks.managedDevice(device.id),
  };
  // The device's scope tags, no column's, where they were read: what the viewer scope shows the row by (src/core/viewer-scope/scope-report.ts).
  if (device.scopeTags !== undefined) row[ROW_SCOPE_TAGS_KEY] = device.scopeTags;
  return row;
}

export class EscrowJoin {
  /** The devices in the order they came; the records' `devices`. */
  readonly devices: WindowsDevice[] = [];
  /** Their names in order, built page by page (name-order.ts). */
  readonly nameOrder = new DeviceNameOrder();
  /** Each device's row, escrow cells and note still empty; handed to one `derive` only (`takeRows`). */
  private rows: ReportRow[] | undefined = [];
  /**
   * Each Entra device id met in any of the three lists, by its slot: where the escrow of that id is
   * kept, whichever list named it first. One look-up a device or escrow record, none undone.
   */
  private readonly slots = new Map<string, number>();
  /** The recovery key entry of each slot's id, once its first key came. */
  private readonly keyBySlot: Array<RecoveryKeyEscrow | undefined> = [];
  /** The last LAPS backup date of each slot's id (null: backed up, date unknown); undefined while none came. */
  private readonly lapsBySlot: Array<string | null | undefined> = [];
  /** Each device's slot; -1 when it has no Entra id. */
  private readonly slotOf: number[] = [];

  /**
   * @param recoveryKeys the map the recovery key list is folded into (`keyArrived` told of each new entry)
   * @param lapsPasswords the map the LAPS list is folded into (`lapsArrived` told of each record)
   */
  constructor(
    readonly recoveryKeys: ReadonlyMap<string, RecoveryKeyEscrow>,
    readonly lapsPasswords: ReadonlyMap<string, string | null>,
  ) {
    // What the escrow lists folded before this join began (the devices read again): taken as it stands.
    for (const [entraId, entry] of recoveryKeys) this.keyArrived(entraId, entry);
    for (const [entraId, lastBackup] of lapsPasswords) this.lapsArrived(entraId, lastBackup);
  }

  /** How many devices it holds. */
  get size(): number {
    return this.devices.length;
  }

  /** The next page's Windows devices: their rows made, their names ordered, each given the slot of its Entra id. */
  addDevices(page: readonly WindowsDevice[]): void {
    if (page.length === 0) return;
    const rows = this.rows;
    for (const device of page) {
      this.devices.push(device);
      rows?.push(deviceRow(device));
      this.slotOf.push(device.entraDeviceId === null ? -1 : this.slotFor(device.entraDeviceId));
    }
    this.nameOrder.add(page.map((device) => device.deviceName));
  }

  /** A recovery key entry made for `entraId` (its first key); its later keys update the same object. */
  keyArrived(entraId: string, entry: RecoveryKeyEscrow): void {
    this.keyBySlot[this.slotFor(entraId)] = entry;
  }

  /** A LAPS record for `entraId`: its backup date, replacing any earlier record's as the map's entry is. */
  lapsArrived(entraId: string, lastBackup: string | null): void {
    this.lapsBySlot[this.slotFor(entraId)] = lastBackup;
  }

  /** The recovery key entry of the device at `index`, as `recoveryKeys.get` of its Entra id gives it now. */
  keyAt(index: number): RecoveryKeyEscrow | undefined {
    const slot = this.slotOf[index]!;
    return slot < 0 ? undefined : this.keyBySlot[slot];
  }

  /**
   * The LAPS backup of the device at `index`, as `lapsPasswords` holds it now: undefined when there
   * is none (or the device has no Entra id), else its date or null.
   */
  lapsAt(index: number): string | null | undefined {
    const slot = this.slotOf[index]!;
    return slot < 0 ? undefined : this.lapsBySlot[slot];
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

  /** The slot of an Entra id, made when the id is new; its escrow unknown until a list names it. */
  private slotFor(entraId: string): number {
    let slot = this.slots.get(entraId);
    if (slot === undefined) {
      slot = this.slots.size;
      this.slots.set(entraId, slot);
      this.keyBySlot.push(undefined);
      this.lapsBySlot.push(undefined);
    }
    return slot;
  }
}
