/**
 * Which platform an assigned object is for, and which platform a managed device runs
 * (docs/finding-rules.md, "What applies", "Platforms"). Intune delivers a profile, a compliance
 * policy, a settings catalog policy, a script or an app only to devices of its platform, so an
 * object for iOS assigned to All users never reaches a Windows PC. Told from what Graph sends: the
 * object's `@odata.type` (profiles, compliance policies, apps), a configuration or compliance
 * policy's `platforms`, the script kind, the object type (Administrative Templates and Windows
 * updates: Windows), an intent's template's `platformType`. A type not listed here is an unknown platform, never a guess.
 */

import type { AssignableObject } from '../reports/assignment-hygiene/records.js';

export type Platform = 'windows' | 'iOS' | 'macOS' | 'android' | 'linux';

/** As the admin center names them. */
export const PLATFORM_NAMES: Readonly<Record<Platform, string>> = {
  windows: 'Windows',
  iOS: 'iOS/iPadOS',
  macOS: 'macOS',
  android: 'Android',
  linux: 'Linux',
};

export type ObjectPlatform =
  | { kind: 'for'; platforms: Platform[] }
  /** A web link (`webApp`) opens on any platform. */
  | { kind: 'any' }
  | { kind: 'unknown'; reason: string };

/**
 * `@odata.type` prefixes of the derived types of `deviceConfiguration`, `deviceCompliancePolicy`
 * and `mobileApp` (Graph v1.0 and beta): each derived type is for one platform (Microsoft Learn,
 * the `deviceCompliancePolicy` resource: "Compliance policies are platform specific"). Longest
 * prefix first, so `windowsPhone81…` is not read as Windows.
 */
const TYPE_PREFIXES: ReadonlyArray<readonly [string, Platform | null]> = [
  // Windows Phone 8.1 and Windows 10 Mobile are platforms of their own that `operatingSystem` does not name alike: unknown.
  ['windowsphone', null],
  ['windows10mobile', null],
  ['windowsmobilemsi', 'windows'],
  ['windows', 'windows'],
  ['win32', 'windows'],
  ['winget', 'windows'],
  ['microsoftstoreforbusiness', 'windows'],
  ['officesuiteapp', 'windows'],
  ['editionupgrade', 'windows'],
  ['sharedpc', 'windows'],
  ['managedios', 'iOS'],
  ['iosipados', 'iOS'],
  ['ios', 'iOS'],
  ['macos', 'macOS'],
  ['managedandroid', 'android'],
  ['androidforwork', 'android'],
  ['android', 'android'],
  ['aosp', 'android'],
];

/** `deviceManagementConfigurationPlatforms` members (Graph beta), a comma-separated flags value. */
const CONFIGURATION_PLATFORMS: Readonly<Record<string, Platform>> = {
  windows10: 'windows',
  windows10x: 'windows',
  ios: 'iOS',
  macos: 'macOS',
  android: 'android',
  androidenterprise: 'android',
  aosp: 'android',
  linux: 'linux',
};

/**
 * `policyPlatformType` members (Graph beta, the deviceManagementTemplate resource), an intent
 * template's `platformType`: the platform its intents are for. `all` is every platform; Windows
 * Phone 8.1 is a platform `operatingSystem` does not name alike, so unknown.
 */
const POLICY_PLATFORMS: Readonly<Record<string, Platform | 'any'>> = {
  windows10andlater: 'windows',
  windows81andlater: 'windows',
  windows10xprofile: 'windows',
  ios: 'iOS',
  macos: 'macOS',
  android: 'android',
  androidforwork: 'android',
  androidworkprofile: 'android',
  androidaosp: 'android',
  all: 'any',
};

export function objectPlatform(object: Pick<AssignableObject, 'kind' | 'odataType' | 'templatePlatform'> & { platforms?: string | null }): ObjectPlatform {
  switch (object.kind) {
    // Administrative Templates are ADMX settings for Windows
    // (learn.microsoft.com/mem/intune/configuration/administrative-templates-windows); Windows
    // Update for Business profiles and policies are for Windows 10 and later
    // (learn.microsoft.com/mem/intune/protect/windows-update-for-business-configure).
    case 'administrativeTemplate':
    case 'featureUpdateProfile':
    case 'qualityUpdateProfile':
    case 'qualityUpdatePolicy':
    case 'driverUpdateProfile':
      return { kind: 'for', platforms: ['windows'] };
    // deviceShellScript: "Shell scripts on the enrolled Mac OS devices" (the resource's Graph page).
    case 'macOSShellScript':
      return { kind: 'for', platforms: ['macOS'] };
    case 'intent': {
      const template = object.templatePlatform;
      if (!template) return { kind: 'unknown', reason: 'its template was not read' };
      if (!template.ok) return { kind: 'unknown', reason: template.reason };
      const platform = template.value ? POLICY_PLATFORMS[template.value.toLowerCase()] : undefined;
      if (!platform) return { kind: 'unknown', reason: `its template's platform "${template.value ?? ''}" is not one this app knows` };
      return platform === 'any' ? { kind: 'any' } : { kind: 'for', platforms: [platform] };
    }
    // Platform scripts read here are `deviceManagementScript`, PowerShell for Windows (macOS shell
    // scripts are `deviceShellScript`, another collection); remediations run on Windows only.
    case 'platformScript':
    case 'remediation':
      return { kind: 'for', platforms: ['windows'] };
    case 'settingsCatalogPolicy':
    case 'settingsCompliancePolicy': {
      const names = (object.platforms ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      if (names.length === 0) return { kind: 'unknown', reason: 'Graph sent no `platforms` for it' };
      const platforms = new Set<Platform>();
      for (const name of names) {
        const platform = CONFIGURATION_PLATFORMS[name.toLowerCase()];
        if (!platform) return { kind: 'unknown', reason: `its platforms value "${name}" is not one this app knows` };
        platforms.add(platform);
      }
      return { kind: 'for', platforms: [...platforms] };
    }
    default: {
      const type = object.odataType?.replace(/^#?microsoft\.graph\./, '') ?? '';
      if (!type) return { kind: 'unknown', reason: 'Graph sent no `@odata.type` for it' };
      if (object.kind === 'mobileApp' && type === 'webApp') return { kind: 'any' };
      const lower = type.toLowerCase();
      const prefix = TYPE_PREFIXES.find(([start]) => lower.startsWith(start));
      if (!prefix || prefix[1] === null) return { kind: 'unknown', reason: `its type "${type}" is not one this app knows the platform of` };
      return { kind: 'for', platforms: [prefix[1]] };
    }
  }
}

/**
 * The platform of a managed device from its `operatingSystem`, which Intune writes as free text
 * (`Windows`, `iOS`, `iPadOS`, `macOS`, `Android`, `AndroidForWork`, `Linux`, …; Microsoft Learn,
 * the `managedDevice` resource). Null when the text names none of them.
 */
export function devicePlatform(operatingSystem: string | null | undefined): Platform | null {
  const os = (operatingSystem ?? '').trim().toLowerCase();
  if (!os) return null;
  if (os.startsWith('windows mobile') || os.startsWith('windows phone')) return null;
  if (os.startsWith('windows')) return 'windows';
  if (os === 'ios' || os === 'ipados') return 'iOS';
  if (os === 'macos' || os === 'mac os x' || os === 'macosx') return 'macOS';
  if (os.startsWith('android')) return 'android';
  if (os.startsWith('linux') || os === 'ubuntu' || os === 'redhat') return 'linux';
  return null;
}

/** "iOS/iPadOS", "Windows and macOS". */
export function platformWords(platforms: readonly Platform[]): string {
  const names = platforms.map((platform) => PLATFORM_NAMES[platform]);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
