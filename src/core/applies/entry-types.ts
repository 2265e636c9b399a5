/**
 * The entries of a "what applies" answer (derive.ts): who the question is about, each object that
 * reaches them, its verdict and the path it takes (docs/contract.md, "What applies"). Types only,
 * apart from the rules, so that conflicts.ts and the answer's other parts name them without
 * importing derive.ts.
 */

import type { AssignableKind } from '../reports/assignment-hygiene/records.js';
import type { FilterDeviceProperties } from './filter-rule.js';
import type { Platform } from '../policy-settings/platform.js';

/** Who the question is about, as the app resolved it. */
export type AppliesSubject =
  | {
      kind: 'device';
      /** The managed device id (Intune). */
      id: string;
      name: string;
      /**
       * The device's Entra object id, which group member lists name. Null when it cannot be told:
       * the managed device carries the Entra `deviceId` (`azureADDeviceId`), not the object id, and
       * a member list shows a device's `deviceId` only to an app that may read devices.
       */
      entraObjectId: string | null;
      /** Why `entraObjectId` is null, said where a group may hold devices (the optional Device.Read.All not granted, say). */
      entraUnknownReason?: string;
      /** The primary user's Entra object id (`managedDevice.userId`), through whom user-targeted assignments apply. */
      primaryUserId: string | null;
      primaryUserName: string | null;
      /** The managed device's `operatingSystem` (free text, e.g. `Windows`, `iOS`): which platform's objects reach it. */
      operatingSystem: string | null;
      properties: FilterDeviceProperties;
      link: string;
    }
  | { kind: 'user'; id: string; name: string }
  | { kind: 'group'; id: string; name: string };

/** The direct members of one group, as `/groups/{id}/members` lists them, or why they could not be read. */
export type GroupMembers =
  | { state: 'read'; id: string; displayName: string; userIds: ReadonlySet<string>; deviceIds: ReadonlySet<string>; groupIds: readonly string[] }
  | { state: 'unknown'; id: string; displayName: string | null; reason: string };

export type ObjectTypeLabel =
  | 'Configuration profiles'
  | 'Administrative templates'
  | 'Settings catalog policies'
  | 'Endpoint security policies'
  | 'Compliance policies'
  | 'Windows updates'
  | 'Apps'
  | 'Platform scripts'
  | 'macOS shell scripts'
  | 'Remediations';

/** One step of the way an assignment reaches the subject. */
export type PathStep =
  | { kind: 'allUsers'; words: string }
  | { kind: 'allDevices'; words: string }
  | { kind: 'group'; id: string; name: string; words: string }
  | { kind: 'primaryUser'; id: string; name: string; words: string }
  | { kind: 'subject'; id: string; name: string; words: string };

export interface AppliedFilter {
  mode: 'include' | 'exclude';
  id: string | null;
  name: string;
  /** `in`: it lets the object in; `out`: it keeps it out; `depends`: the device's properties it reads are not known. */
  verdict: 'in' | 'out' | 'depends';
  words: string;
}

/** `notForPlatform`: assigned so that it reaches the device, but for another platform, so Intune never delivers it there. */
export type AppliesVerdict = 'applies' | 'excluded' | 'dependsOnFilter' | 'unknown' | 'notForPlatform';

/** Which platform an object is for, as far as the records tell. */
export interface AppliesPlatform {
  /** `any`: a web link; `unknown`: its type does not tell (never guessed). */
  kind: 'for' | 'any' | 'unknown';
  platforms: Platform[];
  /** "iOS/iPadOS", "any platform", "an unknown platform". */
  words: string;
}

/**
 * What kept an entry from a verdict, as a code the front ends group by and the tests assert
 * (docs/contract.md, "What applies"):
 * - `assignmentsUnread`: its assignments could not be read;
 * - `membersUnread`: a group on its way (or an exclusion's) could not be read whole;
 * - `deviceNotIdentified`: a group on its way holds devices, and which Entra device this one is
 *   cannot be told (Device.Read.All not granted, or no Entra device): one reason for every such entry;
 * - `nestedTooDeep`: its groups are nested deeper than the walk goes;
 * - `intentUnresolved`: an app's intents that Intune's documented precedence does not settle;
 * - `platformUnknown`: which platform it is for, or the device runs, could not be matched.
 */
export type UndecidedCode = 'assignmentsUnread' | 'membersUnread' | 'deviceNotIdentified' | 'nestedTooDeep' | 'intentUnresolved' | 'platformUnknown';

/** Why an entry could not be decided: its code, the reason as its source said it, and the entry's words without that reason. */
export interface Undecided {
  code: UndecidedCode;
  /** Why, in words from where it came (a group read's failure, a permission not granted). */
  reason: string;
  /** The entry's words up to the reason ("Assigned to Finance Devices, whose membership could not be told"), for a reason said once for many entries. */
  without: string;
}

export interface AppliesEntry {
  objectId: string;
  name: string;
  kind: AssignableKind;
  typeLabel: ObjectTypeLabel;
  link: string;
  verdict: AppliesVerdict;
  /**
   * App intent as Intune resolves it between the assignments that reach the subject (`required`,
   * `available`, `uninstall`, or a merged `required and available`); null for other kinds.
   */
  intent: string | null;
  /** Which platform it is for. */
  platform: AppliesPlatform;
  /** The way it reaches the subject, from the assignment's target down to the subject. */
  path: PathStep[];
  /** What takes it out: an exclusion group (with its path) or a filter. */
  exclusion?: { kind: 'group'; path: PathStep[]; words: string } | { kind: 'filter'; filter: AppliedFilter; words: string };
  filter?: AppliedFilter;
  /** The verdict in plain English, for a card, the tab and the CLI. */
  words: string;
  /** What could not be known, in plain English (e.g. a filter `/v1.0` does not show). */
  caveats: string[];
  /** Set where the verdict is `unknown`: why, as data. */
  undecided?: Undecided;
}

export interface AppliesGroup {
  typeLabel: ObjectTypeLabel;
  entries: AppliesEntry[];
}
