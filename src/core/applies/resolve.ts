/**
 * Which device, user or group a question names (docs/finding-rules.md, "What applies"): a device
 * by name or managed device id, a user by UPN (as the managed devices' primary users name them) or
 * object id, a group by name or id. Pure: the candidates are what Graph found for the question's
 * words (load.ts: `$filter` by name, or a read by id), compared here without case.
 */

import { intuneLinks } from '../reports/intune-links.js';
import type { AppliesSubject } from './entry-types.js';
import type { FilterDeviceProperties } from './filter-rule.js';

/** The fields of a managed device (`managedDevice`, Graph) the question reads. */
export interface DeviceRecord {
  id: string;
  deviceName: string | null;
  userId: string | null;
  userPrincipalName: string | null;
  azureADDeviceId: string | null;
  /** `operatingSystem`, free text (`Windows`, `iOS`, …): which platform's objects reach it. */
  operatingSystem: string | null;
  properties: FilterDeviceProperties;
}

export interface GroupRecord {
  id: string;
  displayName: string;
}

export interface AppliesCandidate {
  kind: AppliesSubject['kind'];
  id: string;
  name: string;
  /** For a device: its primary user; for a user: how many managed devices name them. */
  detail: string;
}

export type Resolution =
  | { kind: 'found'; subject: AppliesSubject }
  | { kind: 'notFound'; query: string; words: string }
  | { kind: 'ambiguous'; query: string; candidates: AppliesCandidate[]; more: number; words: string };

/** Candidates listed for an ambiguous question; the rest are counted. */
export const MAX_CANDIDATES = 10;

const same = (a: string | null | undefined, b: string) => typeof a === 'string' && a.toLowerCase() === b;

/**
 * The words a question is looked up by, and kept by (src/app/applies-service.ts): one function for
 * both, so that what is kept under a key is always what a look-up of those very words found. The case
 * is kept as typed: Graph is asked with the words as typed (load.ts) and compares names without case
 * (`sameFilterString`, src/sim/odata-query.ts, for the sources); should a service compare them
 * exactly, `CONTOSO-0027` is still asked for itself and not answered from what `contoso-0027` found.
 */
export function questionWords(query: string): string {
  return query.trim();
}

export function resolveSubject(query: string, devices: readonly DeviceRecord[], groups: readonly GroupRecord[], memberUserIds: ReadonlySet<string> = new Set()): Resolution {
  const wanted = questionWords(query).toLowerCase();
  if (!wanted) return { kind: 'notFound', query, words: 'Name a device, a user (UPN) or a group to ask what applies to it.' };
  const found: AppliesSubject[] = [];
  for (const device of devices) {
    if (same(device.id, wanted) || same(device.deviceName, wanted)) found.push(deviceSubject(device));
  }
  const users = new Map<string, { id: string; name: string; devices: number }>();
  for (const device of devices) {
    if (!device.userId || !(same(device.userPrincipalName, wanted) || same(device.userId, wanted))) continue;
    const key = device.userId.toLowerCase();
    const user = users.get(key) ?? { id: device.userId, name: device.userPrincipalName ?? device.userId, devices: 0 };
    user.devices += 1;
    users.set(key, user);
  }
  if (users.size === 0 && memberUserIds.has(wanted)) users.set(wanted, { id: wanted, name: wanted, devices: 0 });
  for (const user of users.values()) found.push({ kind: 'user', id: user.id, name: user.name });
  for (const group of groups) {
    if (same(group.id, wanted) || same(group.displayName, wanted)) found.push({ kind: 'group', id: group.id, name: group.displayName });
  }
  if (found.length === 1) return { kind: 'found', subject: found[0]! };
  if (found.length === 0) {
    return {
      kind: 'notFound',
      query,
      words: `Nothing is called "${query.trim()}": no managed device by that name or id, no primary user with that UPN, no user with that id, and no group by that name or id.`,
    };
  }
  const candidates = found.slice(0, MAX_CANDIDATES).map((subject) => candidate(subject, users));
  const more = found.length - candidates.length;
  return {
    kind: 'ambiguous',
    query,
    candidates,
    more,
    words: `"${query.trim()}" names ${found.length} things; ask again with one of their ids.`,
  };
}

function deviceSubject(device: DeviceRecord): AppliesSubject {
  return {
    kind: 'device',
    id: device.id,
    name: device.deviceName ?? device.id,
    // The managed device carries the Entra `deviceId` (azureADDeviceId), not the Entra object id that member lists name.
    entraObjectId: null,
    primaryUserId: device.userId,
    primaryUserName: device.userPrincipalName,
    operatingSystem: device.operatingSystem,
    properties: device.properties,
    link: intuneLinks.managedDevice(device.id),
  };
}

function candidate(subject: AppliesSubject, users: ReadonlyMap<string, { devices: number }>): AppliesCandidate {
  if (subject.kind === 'device')
    return { kind: 'device', id: subject.id, name: subject.name, detail: subject.primaryUserName ? `primary user ${subject.primaryUserName}` : 'no primary user' };
  if (subject.kind === 'user') {
    const count = users.get(subject.id.toLowerCase())?.devices ?? 0;
    return { kind: 'user', id: subject.id, name: subject.name, detail: `primary user of ${count} managed device${count === 1 ? '' : 's'}` };
  }
  return { kind: 'group', id: subject.id, name: subject.name, detail: 'group' };
}
