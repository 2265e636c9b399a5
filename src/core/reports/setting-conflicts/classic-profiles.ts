/**
 * Device restrictions profiles, the configuration profiles made before the settings catalog, as
 * report 7 compares them (docs/finding-rules.md, "Setting conflicts", "Configuration profiles"):
 * each profile of a compared type is read whole, by id, twenty to a `$batch`, and each field it sets
 * becomes a value compared as a settings catalog setting is: two profiles of one type that set a
 * field differently, or a profile and a settings catalog policy that set the same CSP setting
 * differently (`CATALOG_EQUIVALENTS`), conflict where they reach the same device or user. Intune
 * treats every policy type as a source of conflicts ("Security baselines, device configuration
 * policies, and endpoint security policies are all treated as equal sources of device configuration
 * settings by Intune", learn.microsoft.com/intune/intune-service/protect/endpoint-security-policy).
 */

import type { GraphReader, BatchOutcome } from '../../graph/graph-reader.js';
import { pathInBatch } from '../../graph/upstream-read.js';
import { intuneLinks } from '../intune-links.js';
import { optionalReadFailure } from '../optional-read.js';
import type { AssignableObject } from '../assignment-hygiene/records.js';
import { classicSettingName, classicSettingValue, isComparedProfile, typeOf } from './classic-settings.js';
import type { ConflictPolicy } from '../../policy-settings/conflict-policy.js';
import { CLASSIC_PROFILE_READ } from './reads.js';
import type { SettingValue } from '../../policy-settings/setting-values.js';

/**
 * Fields a device restrictions profile holds that Microsoft's settings page names with the CSP
 * behind them, so that a settings catalog policy setting that CSP sets the same setting: Microsoft
 * Learn, "Windows 10 (and newer) device settings to allow or restrict features using Intune",
 * "General": "Camera: Block prevents users from using the camera on the device" (Camera CSP,
 * AllowCamera, whose 0 is "Not allowed"); "Cortana: Block disable the Cortana voice assistant"
 * ([Experience/AllowCortana CSP], 0 "Block"); "Geolocation: Block prevents users from turning on
 * location services" ([System/AllowLocation CSP], 0 "Force Location Off"); "Removable storage:
 * Block" ([System/AllowStorageCard CSP], 0 "SD card use is not allowed"). Each field's Block is the
 * catalog's option 0; its Not configured sets nothing. Microsoft365DSC names the same properties for
 * the same fields (its resource IntuneDeviceConfigurationPolicyWindows10: `CameraBlocked`,
 * `CortanaBlocked`, `LocationServicesBlocked`, `StorageBlockRemovableStorage`).
 */
const CATALOG_EQUIVALENTS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  windows10GeneralConfiguration: {
    cameraBlocked: 'device_vendor_msft_policy_config_camera_allowcamera',
    cortanaBlocked: 'device_vendor_msft_policy_config_experience_allowcortana',
    locationServicesBlocked: 'device_vendor_msft_policy_config_system_allowlocation',
    storageBlockRemovableStorage: 'device_vendor_msft_policy_config_system_allowstoragecard',
  },
};

/** What a profile carries that is not a setting: who it is, when it changed, its scope tags, its applicability rules and navigation properties. */
const NOT_SETTINGS = new Set([
  'id',
  'displayName',
  'description',
  'createdDateTime',
  'lastModifiedDateTime',
  'version',
  'roleScopeTagIds',
  'supportsScopeTags',
  'deviceManagementApplicabilityRuleOsEdition',
  'deviceManagementApplicabilityRuleOsVersion',
  'deviceManagementApplicabilityRuleDeviceMode',
  'assignments',
  'deviceStatuses',
  'userStatuses',
  'deviceStatusOverview',
  'userStatusOverview',
  'deviceSettingStateSummaries',
  'groupAssignments',
]);

/**
 * Enum members that set nothing: "When set to Not configured (default), Intune doesn't change or
 * update this setting" (the device restrictions pages); `deviceDefault` and `userDefined` leave the
 * device's own value, as Not configured does.
 */
const UNSET_MEMBERS = new Set(['notconfigured', 'devicedefault', 'userdefined']);

/** The id a profile's field is compared under: the settings catalog's where Microsoft names the CSP, else the type and the field. */
export function classicSettingId(type: string, property: string): string {
  return CATALOG_EQUIVALENTS[type]?.[property] ?? `${type}/${property}`;
}

/**
 * The fields a profile sets, as values compared like a settings catalog policy's. A field is set
 * when it is true (a `…Blocked` field false is Not configured), a number, or a text other than
 * empty and an unset member; lists and grouped fields are not compared (whether Intune merges them
 * is not documented), nor is a field whose type this code does not know.
 */
export function classicProfileValues(profile: Record<string, unknown>): SettingValue[] {
  const type = typeOf(typeof profile['@odata.type'] === 'string' ? profile['@odata.type'] : null);
  const values: SettingValue[] = [];
  for (const [property, raw] of Object.entries(profile)) {
    if (property.startsWith('@') || property.includes('@') || NOT_SETTINGS.has(property)) continue;
    let value: string | null = null;
    if (raw === true) value = 'true';
    else if (typeof raw === 'number' && Number.isFinite(raw)) value = String(raw);
    else if (typeof raw === 'string' && raw.trim() !== '' && !UNSET_MEMBERS.has(raw.toLowerCase())) value = raw.trim();
    if (value === null) continue;
    const settingDefinitionId = classicSettingId(type, property);
    const mapped = settingDefinitionId !== `${type}/${property}`;
    // A mapped Block is the catalog's option 0 (`CATALOG_EQUIVALENTS`): compared with a catalog policy's choice by its option id.
    values.push({ settingDefinitionId, value: mapped ? `${settingDefinitionId}_0` : value, display: classicSettingValue(property, raw), secret: false });
  }
  return values;
}

/** The names a person reads for the fields compared under their own id (`<type>/<field>`): Microsoft's label, else the field's words. */
export function classicSettingNames(values: readonly SettingValue[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const { settingDefinitionId } of values) {
    const slash = settingDefinitionId.indexOf('/');
    if (slash > 0) names.set(settingDefinitionId, classicSettingName(settingDefinitionId.slice(slash + 1)));
  }
  return names;
}

/** A profile read, as the conflict rules take it, or why it could not be read. */
function profilePolicy(object: AssignableObject, outcome: BatchOutcome | undefined, signal: AbortSignal): ConflictPolicy {
  const base = { id: object.id, name: object.name, templateFamily: 'none', platforms: '', link: intuneLinks.deviceConfiguration(object.id) };
  if (!outcome) return { ...base, values: null, settingsError: 'Graph gave no answer for its settings' };
  if (!outcome.ok) return { ...base, values: null, settingsError: `its settings could not be read: ${optionalReadFailure(outcome.error, signal)}` };
  const body = outcome.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return { ...base, values: null, settingsError: 'Graph sent a malformed answer for its settings' };
  return { ...base, values: classicProfileValues(body as Record<string, unknown>), settingsError: null };
}

/**
 * Every assigned profile of a compared type, read whole by id (`CLASSIC_PROFILE_READ`), twenty to a
 * `$batch`; a profile that could not be read is one whose settings are unknown, never one that sets
 * nothing. A profile assigned to no one (or only excluding) is not read: it reaches no one.
 */
export async function readClassicProfiles(graph: GraphReader, objects: readonly AssignableObject[], signal: AbortSignal): Promise<ConflictPolicy[]> {
  const profiles = objects.filter((object) => isComparedProfile(object) && (object.targets === null || object.targets.some((target) => target.type !== 'exclude')));
  if (profiles.length === 0) return [];
  let outcomes: Map<string, BatchOutcome>;
  try {
    // One batchGet of them all: the client sends twenty to a call and paces them (src/graph/graph-batch.ts).
    outcomes = await graph.batchGet(
      profiles.map((profile, position) => ({ id: String(position), url: pathInBatch(CLASSIC_PROFILE_READ, profile.id) })),
      { version: 'v1.0', signal },
    );
  } catch (error) {
    const reason = `its settings could not be read: ${optionalReadFailure(error, signal)}`;
    return profiles.map((profile) => ({ ...profilePolicy(profile, undefined, signal), settingsError: reason }));
  }
  return profiles.map((profile, position) => profilePolicy(profile, outcomes.get(String(position)), signal));
}
