/**
 * The properties `$select` may name on Windows update profiles and policies (beta only), per schema
 * version (entity-properties.ts says why declared lists, and how the compiler holds them).
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { propertiesOf } from './declared-properties.js';
import type { DeclaredProperties } from './declared-properties.js';

export const WINDOWS_FEATURE_UPDATE_PROFILE: DeclaredProperties = {
  type: 'windowsFeatureUpdateProfile',
  beta: propertiesOf<Beta.WindowsFeatureUpdateProfile>()([
    'assignments',
    'createdDateTime',
    'deployableContentDisplayName',
    'description',
    'displayName',
    'endOfSupportDate',
    'featureUpdateVersion',
    'id',
    'installFeatureUpdatesOptional',
    'installLatestWindows10OnWindows11IneligibleDevice',
    'lastModifiedDateTime',
    'roleScopeTagIds',
    'rolloutSettings',
  ]),
};

export const WINDOWS_QUALITY_UPDATE_PROFILE: DeclaredProperties = {
  type: 'windowsQualityUpdateProfile',
  beta: propertiesOf<Beta.WindowsQualityUpdateProfile>()([
    'assignments',
    'createdDateTime',
    'deployableContentDisplayName',
    'description',
    'displayName',
    'expeditedUpdateSettings',
    'id',
    'lastModifiedDateTime',
    'releaseDateDisplayName',
    'roleScopeTagIds',
  ]),
};

export const WINDOWS_QUALITY_UPDATE_POLICY: DeclaredProperties = {
  type: 'windowsQualityUpdatePolicy',
  beta: propertiesOf<Beta.WindowsQualityUpdatePolicy>()([
    'approvalSettings',
    'assignments',
    'createdDateTime',
    'description',
    'displayName',
    'hotpatchEnabled',
    'id',
    'lastModifiedDateTime',
    'roleScopeTagIds',
  ]),
};

export const WINDOWS_DRIVER_UPDATE_PROFILE: DeclaredProperties = {
  type: 'windowsDriverUpdateProfile',
  beta: propertiesOf<Beta.WindowsDriverUpdateProfile>()([
    'approvalType',
    'assignments',
    'createdDateTime',
    'deploymentDeferralInDays',
    'description',
    'deviceReporting',
    'displayName',
    'driverInventories',
    'id',
    'inventorySyncStatus',
    'lastModifiedDateTime',
    'newUpdates',
    'roleScopeTagIds',
  ]),
};
