import type { GraphRecord, SimTenant } from './tenants/sim-tenant.js';
import { recordsOf } from './tenants/sim-tenant.js';

/**
 * `GET /users/{id}/managedDevices`: the user's `managedDevices` relationship, "The managed devices
 * associated with the user" (the Intune user resource, learn.microsoft.com/graph/api/resources/intune-devices-user),
 * a list of managedDevice served as the tenant's list is (its permissions, page size, `$select` and
 * `/v1.0` omissions: resources/devices.ts), kept to the devices whose primary user (`userId`) is
 * that user. Which devices those are is found through the generated list's index where it keeps
 * one, else by a scan.
 */
export const USER_DEVICES_PATH = /^\/users\/([^/()]+)\/managedDevices$/;

/** The managed devices whose `userId` is `userId` (without case, as Graph's ids are compared). */
export function devicesOfUser(tenant: Pick<SimTenant, 'collections' | 'generated'>, userId: string): GraphRecord[] {
  const wanted = userId.toLowerCase();
  const list = recordsOf(tenant, 'managedDevices');
  const isUsers = (record: GraphRecord) => typeof record.userId === 'string' && record.userId.toLowerCase() === wanted;
  if (Array.isArray(list)) return (list as readonly GraphRecord[]).filter(isUsers);
  const generated = list as Exclude<typeof list, readonly GraphRecord[]>;
  const indexed = generated.indexOf?.('userId', wanted);
  if (indexed) return indexed.map((index) => generated.at(index)).filter(isUsers);
  const found: GraphRecord[] = [];
  for (let index = 0; index < generated.length; index += 1) {
    const record = generated.at(index);
    if (isUsers(record)) found.push(record);
  }
  return found;
}
