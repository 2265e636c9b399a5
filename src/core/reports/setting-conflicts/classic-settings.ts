/**
 * Settings of device configuration profiles made before the settings catalog (device restrictions
 * and the like), as Intune's conflict summary names them: by the Graph property of the profile
 * (`contributingSettings`, deviceConfigurationConflictSummary, "The set of settings in conflict
 * with the given device configurations",
 * learn.microsoft.com/graph/api/resources/intune-deviceconfig-deviceconfigurationconflictsummary?view=graph-rest-beta),
 * such as `cameraBlocked`. Graph carries no display name for these properties, so they are named
 * here as Microsoft's settings pages name the field, else by the property's own words
 * (docs/finding-rules.md, "Settings as the admin center names them"). Which profile types report 7
 * reads and compares field by field is decided here too (`COMPARED_CLASSIC_TYPES`).
 */

/**
 * The fields Microsoft's device restrictions settings page names (Microsoft Learn, "Windows device
 * settings to allow or restrict features using Intune",
 * learn.microsoft.com/intune/intune-service/configuration/device-restrictions-windows-10: "Camera"
 * under General, "Bluetooth" under Wireless, "Removable storage" and "Screen capture" under General,
 * "Password", "Minimum password length" and "Password expiration (days)" under Password).
 * Microsoft365DSC describes the same properties by their fields too (its resource page
 * IntuneDeviceConfigurationPolicyAndroidDeviceAdministrator: `CameraBlocked`, "Block use of camera",
 * microsoft.github.io/Microsoft365DSC/resources/intune/IntuneDeviceConfigurationPolicyAndroidDeviceAdministrator/).
 */
const CLASSIC_LABELS: Readonly<Record<string, string>> = {
  cameraBlocked: 'Camera',
  bluetoothBlocked: 'Bluetooth',
  storageBlockRemovableStorage: 'Removable storage',
  screenCaptureBlocked: 'Screen capture',
  passwordRequired: 'Password',
  passwordMinimumLength: 'Minimum password length',
  passwordExpirationDays: 'Password expiration (days)',
};

/** Words a property name keeps upper case when split ("Wi Fi" reads badly either way, so only true acronyms). */
const ACRONYMS = new Set(['Pin', 'Vpn', 'Usb', 'Nfc', 'Os', 'Ui', 'Url', 'Sms', 'Mms', 'Id']);

/** A Graph property name in words: `cameraBlocked` is "Camera Blocked", `usbBlocked` "USB Blocked". */
export function propertyWords(property: string): string {
  const words = property
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_]+/)
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1));
  return words.map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word)).join(' ');
}

/** A classic profile's property as a person reads it: Microsoft's label for the field where its page gives one, else its words. */
export function classicSettingName(property: string): string {
  return Object.hasOwn(CLASSIC_LABELS, property) ? CLASSIC_LABELS[property]! : propertyWords(property);
}

/**
 * A classic profile property's value in the property's own sense, never `true` or `false`: the
 * device restrictions pages offer "Block" and "Not configured" for such a field ("When set to Not
 * configured (default), Intune doesn't change or update this setting", "Windows device settings to
 * allow or restrict features using Intune"), so a `…Blocked` or `block…` property that is true is
 * "Blocked" and one that is false "Not configured"; a `…Required` one "Required", an `…Enabled` one
 * "Enabled", another "Yes". Numbers and texts are shown as they are.
 */
export function classicSettingValue(property: string, value: unknown): string {
  if (typeof value === 'boolean') {
    if (!value) return 'Not configured';
    if (/Blocked$|^block|Block[A-Z]/.test(property)) return 'Blocked';
    if (/Required$/.test(property)) return 'Required';
    if (/Enabled$/.test(property)) return 'Enabled';
    return 'Yes';
  }
  if (typeof value === 'number' || typeof value === 'string') return String(value);
  return value === null || value === undefined ? 'Not configured' : JSON.stringify(value);
}

/**
 * The device restrictions types compared, one per platform, each the Graph type behind the admin
 * center's "Device restrictions" profile (Microsoft Learn, "Device restriction settings" for Windows,
 * iOS/iPadOS, macOS and Android: learn.microsoft.com/intune/intune-service/configuration/device-restrictions-configure).
 * Their fields are plain settings with no secret among them (the Graph resource pages,
 * learn.microsoft.com/graph/api/resources/intune-deviceconfig-windows10generalconfiguration and its
 * siblings). Other profile types (Wi-Fi, VPN, certificates, custom OMA-URI, kiosk, endpoint
 * protection) are not read: they may hold secrets or settings that merge, and stay named as not compared.
 */
export const COMPARED_CLASSIC_TYPES: ReadonlySet<string> = new Set([
  'windows10GeneralConfiguration',
  'iosGeneralDeviceConfiguration',
  'macOSGeneralDeviceConfiguration',
  'androidGeneralDeviceConfiguration',
  'androidWorkProfileGeneralDeviceConfiguration',
]);

/** A profile's Graph type without its namespace: `windows10GeneralConfiguration`. */
export function typeOf(odataType: string | null | undefined): string {
  return (odataType ?? '').replace(/^#?microsoft\.graph\./, '');
}

/** Whether report 7 reads and compares this configuration profile: one of the compared types. */
export function isComparedProfile(object: { kind: string; odataType?: string | null }): boolean {
  return object.kind === 'deviceConfiguration' && COMPARED_CLASSIC_TYPES.has(typeOf(object.odataType));
}
