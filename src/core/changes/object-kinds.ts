/**
 * The kinds of Intune object the change feed lists, by the resource type the audit log names them
 * with (auditResource's `auditResourceType`; the event's activity is `<verb> <resource type>`,
 * learn.microsoft.com/graph/api/resources/intune-auditing-auditevent), each with the admin center's
 * word for it and the link that opens it (intune-links.ts). An assignment of an object is logged
 * either as an action on the object (`Assign DeviceConfiguration`) or as a resource of its own, the
 * type with `Assignment` after it (`Create DeviceManagementConfigurationPolicyAssignment`); both
 * are that object's kind. Any other type (a device action, a role, an enrollment) is not device
 * configuration: the feed counts it and lists it not (docs/finding-rules.md, "The change feed").
 */

import { intuneLinks } from '../reports/intune-links.js';

export type ChangeObjectKind = 'settings-catalog' | 'intent' | 'device-configuration' | 'compliance' | 'app' | 'platform-script' | 'shell-script' | 'remediation' | 'filter';

interface ObjectKindRow {
  kind: ChangeObjectKind;
  /** What the admin center calls such an object, in a sentence ("Compliance policy"). */
  label: string;
  /** The object's own page in Intune, or its list where no sourced link to its page exists (intune-links.ts). */
  link: (id: string, name: string) => string;
  /** The list it is in, for an object deleted since. */
  list: () => string;
}

/**
 * The resource types, lower case (the log's casing is not documented; the admin center's audit
 * view writes them as below). Settings catalog policies, endpoint security policies and the newer
 * security baselines are all `deviceManagementConfigurationPolicy` in Graph, so the log cannot tell
 * them apart: they share the one label and the one link, Intune's policy summary, which opens all
 * three (intune-links.ts, `configurationPolicy`, needs what the log does not carry; its list stands in).
 */
const OBJECT_KINDS: ReadonlyMap<string, ObjectKindRow> = new Map<string, ObjectKindRow>([
  [
    'devicemanagementconfigurationpolicy',
    { kind: 'settings-catalog', label: 'Settings catalog or endpoint security policy', link: () => intuneLinks.configurationList(), list: intuneLinks.configurationList },
  ],
  [
    'devicemanagementintent',
    { kind: 'intent', label: 'Security baseline or endpoint security policy (template)', link: () => intuneLinks.securityBaselines(), list: intuneLinks.securityBaselines },
  ],
  [
    'deviceconfiguration',
    { kind: 'device-configuration', label: 'Device configuration profile', link: (id) => intuneLinks.deviceConfiguration(id), list: intuneLinks.configurationList },
  ],
  ['devicecompliancepolicy', { kind: 'compliance', label: 'Compliance policy', link: (id, name) => intuneLinks.compliancePolicy(id, name), list: intuneLinks.complianceList }],
  ['mobileapp', { kind: 'app', label: 'App', link: (id) => intuneLinks.mobileApp(id), list: intuneLinks.appsList }],
  ['devicemanagementscript', { kind: 'platform-script', label: 'Platform script (Windows)', link: (id) => intuneLinks.platformScript(id), list: intuneLinks.scriptsList }],
  ['deviceshellscript', { kind: 'shell-script', label: 'Shell script (macOS)', link: () => intuneLinks.scriptsList(), list: intuneLinks.scriptsList }],
  ['devicehealthscript', { kind: 'remediation', label: 'Remediation', link: (id) => intuneLinks.remediation(id), list: intuneLinks.scriptsList }],
  ['deviceandappmanagementassignmentfilter', { kind: 'filter', label: 'Assignment filter', link: () => intuneLinks.assignmentFilters(), list: intuneLinks.assignmentFilters }],
]);

export interface ObjectKindOfType {
  kind: ChangeObjectKind;
  label: string;
  /** Whether the type is the object's assignment rather than the object (`…Assignment`). */
  assignment: boolean;
  link: (id: string, name: string) => string;
  list: () => string;
}

/** The kind of a resource type the log names, or null for one the feed does not list. */
export function objectKindOfType(type: string | undefined): ObjectKindOfType | null {
  if (!type) return null;
  const lower = type.trim().toLowerCase();
  const own = OBJECT_KINDS.get(lower);
  if (own) return { ...own, assignment: false };
  if (lower.endsWith('assignment')) {
    const of = OBJECT_KINDS.get(lower.slice(0, -'assignment'.length));
    if (of) return { ...of, assignment: true };
  }
  return null;
}

/** The resource type in an activity `<verb> <resource type>`, for an event whose resource names no type. */
export function typeOfActivity(activity: string): string | undefined {
  const words = activity.trim().split(/\s+/);
  return words.length === 2 ? words[1] : undefined;
}
