/**
 * The object types "what applies" reads, how each assignable object is labelled by type, and the
 * order the answer lists them in (docs/finding-rules.md, "What applies", "Object types").
 */

import type { AssignableObject } from '../reports/assignment-hygiene/records.js';
import type { ObjectTypeLabel } from './entry-types.js';

export const TYPE_ORDER: readonly ObjectTypeLabel[] = [
  'Configuration profiles',
  'Administrative templates',
  'Settings catalog policies',
  'Endpoint security policies',
  'Compliance policies',
  'Windows updates',
  'Apps',
  'Platform scripts',
  'macOS shell scripts',
  'Remediations',
];

/**
 * Which object types the answer covers, said with every answer so that a missing type is not read
 * as "nothing assigned" (docs/finding-rules.md, "What applies", "Object types").
 */
export const OBJECT_TYPES_READ =
  'Object types read: configuration profiles, administrative templates, settings catalog policies, endpoint security policies (settings catalog and intents), compliance policies (classic and settings catalog), Windows feature, quality and driver updates, apps, platform scripts, macOS shell scripts and remediations. Not read: app protection and app configuration policies (they target users and apps, not a device), enrollment profiles and Cloud PC policies.';

/** Nesting followed below an assigned group; deeper is unknown, never "not a member". */
export const MAX_NESTING_DEPTH = 5;

export function typeLabel(object: Pick<AssignableObject, 'kind'> & { templateFamily?: string | null }): ObjectTypeLabel {
  switch (object.kind) {
    case 'deviceConfiguration':
      return 'Configuration profiles';
    case 'administrativeTemplate':
      return 'Administrative templates';
    case 'settingsCatalogPolicy':
      // Endpoint security policies are configuration policies whose template family starts with
      // `endpointSecurity` (deviceManagementConfigurationTemplateFamily, Graph beta).
      return object.templateFamily?.startsWith('endpointSecurity') ? 'Endpoint security policies' : 'Settings catalog policies';
    // Endpoint security policies and security baselines made before the settings catalog (deviceManagementIntent).
    case 'intent':
      return 'Endpoint security policies';
    case 'compliancePolicy':
    case 'settingsCompliancePolicy':
      return 'Compliance policies';
    case 'featureUpdateProfile':
    case 'qualityUpdateProfile':
    case 'qualityUpdatePolicy':
    case 'driverUpdateProfile':
      return 'Windows updates';
    case 'mobileApp':
      return 'Apps';
    case 'platformScript':
      return 'Platform scripts';
    case 'macOSShellScript':
      return 'macOS shell scripts';
    case 'remediation':
      return 'Remediations';
  }
}
