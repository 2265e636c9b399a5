/**
 * The setting conflicts report's records in the demo tenant: settings catalog policies that set one
 * setting, each case beside the rule and Microsoft page that decides it (docs/finding-rules.md,
 * "Setting conflicts"). Reports 2 and 3 read these policies too; they are assigned to groups with
 * members and set nothing report 3 judges, so they make no finding there, except the one assigned to
 * an empty group, which report 2 declares.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, plantConfigurationPolicy } from '../demo-records.js';
import type { SettingInstance, Target } from '../demo-records.js';
import type { DemoStep, DemoTenantBuilder } from '../report-demo.js';
import { choiceSetting } from '../security-posture/demo-records.js';
import { deviceConfiguration } from '../assignment-hygiene/demo-records.js';
import type { ConflictFindingKind } from './finding-kinds.js';

type Tenant = DemoTenantBuilder<ConflictFindingKind>;

/** The settings the demo's policies set, by id: its tests name the same ones. */
export const CLOUD_PROTECTION = 'device_vendor_msft_policy_config_defender_allowcloudprotection';
export const CAMERA = 'device_vendor_msft_policy_config_camera_allowcamera';
export const CORTANA = 'device_vendor_msft_policy_config_experience_allowcortana';
export const ACTIVE_HOURS_START = 'device_vendor_msft_policy_config_update_activehoursstart';
export const ACTIVE_HOURS_END = 'device_vendor_msft_policy_config_update_activehoursend';
export const EXCLUDED_PATHS = 'device_vendor_msft_policy_config_defender_excludedpaths';
export const TELEMETRY = 'device_vendor_msft_policy_config_system_allowtelemetry';
/** Set through a group nested in another (a proven conflict), to two small groups apart (none), and beside a group too large to see whole (possible). */
export const INSTALL_DAY = 'device_vendor_msft_policy_config_update_scheduledinstallday';
export const INACTIVITY_LOCK = 'device_vendor_msft_policy_config_devicelock_maxinactivitytimedevicelock';
export const INSTALL_TIME = 'device_vendor_msft_policy_config_update_scheduledinstalltime';

/** Device control's "Prevent installation of devices using drivers that match these device setup classes" (Policy CSP - DeviceInstallation), its list of classes a child. */
export const SETUP_CLASSES_BLOCKED = 'device_vendor_msft_policy_config_deviceinstallation_preventinstallationofmatchingdevicesetupclasses';
export const SETUP_CLASSES_BLOCKED_LIST = `${SETUP_CLASSES_BLOCKED}_deviceinstall_classes_deny_list`;
/** Windows' device setup class GUIDs for printers and Bluetooth ("System-Defined Device Setup Classes Available to Vendors", learn.microsoft.com/windows-hardware/drivers/install/system-defined-device-setup-classes-available-to-vendors). */
const PRINTER_SETUP_CLASS = '{4d36e979-e325-11ce-bfc1-08002be10318}';
const BLUETOOTH_SETUP_CLASS = '{e0cbf06c-cd8b-4647-bb8a-263b43f0f974}';

/** Windows Firewall rules (Firewall CSP, MdmStore/FirewallRules/{FirewallRuleName}): a group collection, one entry a rule. */
export const FIREWALL_RULES = 'vendor_msft_firewall_mdmstore_firewallrules_{firewallrulename}';

export const ONBOARDING = 'device_vendor_msft_windowsadvancedthreatprotection_onboarding';
/** macOS's screen saver: the seconds before a password is asked for (the settings catalog's com.apple.screensaver payload). */
export const PASSWORD_DELAY = 'com.apple.screensaver_askforpassworddelay';
/** The tokens Graph gives in place of a secret's value; a test checks that no result carries them. */
export const SECRET_TOKENS = ['9fab7c95-0bb6-4fda-a4a1-6ca582bb3124', '1301f427-7ba6-4908-92a1-15938680cde6'] as const;

function secretSetting(settingDefinitionId: string, token: string): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
    settingDefinitionId,
    simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationSecretSettingValue', value: token, valueState: 'encryptedValueToken' },
  } as SettingInstance;
}

function integerSetting(settingDefinitionId: string, value: number): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
    settingDefinitionId,
    simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationIntegerSettingValue', value },
  } as SettingInstance;
}

function stringListSetting(settingDefinitionId: string, values: string[]): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingCollectionInstance',
    settingDefinitionId,
    simpleSettingCollectionValue: values.map((value) => ({ '@odata.type': '#microsoft.graph.deviceManagementConfigurationStringSettingValue', value })),
  } as SettingInstance;
}

function stringSetting(settingDefinitionId: string, value: string): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
    settingDefinitionId,
    simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationStringSettingValue', value },
  } as SettingInstance;
}

/** One firewall rule, as the settings catalog holds it: an entry of the rules' group collection, its name, action, direction and local ports its children. */
function firewallRulesSetting(rule: { name: string; action: 'allow' | 'block'; ports: string[] }): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
    settingDefinitionId: FIREWALL_RULES,
    groupSettingCollectionValue: [
      {
        children: [
          stringSetting(`${FIREWALL_RULES}_name`, rule.name),
          // The action's options are 0 (Block) and 1 (Allow) (Firewall CSP, FirewallRules/{FirewallRuleName}/Action/Type).
          choiceSetting(`${FIREWALL_RULES}_action_type`, rule.action === 'allow' ? '1' : '0'),
          choiceSetting(`${FIREWALL_RULES}_direction`, 'in'),
          stringListSetting(`${FIREWALL_RULES}_localportranges`, rule.ports),
        ],
      },
    ],
  } as SettingInstance;
}

/**
 * A settings catalog policy whose assignments carry their filter fields as Graph beta returns them
 * (`deviceAndAppManagementAssignmentFilterType` `none` where there is no filter; the beta
 * `deviceAndAppManagementAssignmentTarget`), so that "no filter" is read, not unknown.
 */
function policy(tenant: Tenant, name: string, settings: SettingInstance[], targets: Target[], platforms?: Beta.DeviceManagementConfigurationPlatforms): string {
  const id = plantConfigurationPolicy(tenant, { name, templateFamily: 'none', settings, targets });
  const record = tenant.records('configurationPolicies').find((candidate) => candidate.id === id) as unknown as Beta.DeviceManagementConfigurationPolicy;
  if (platforms) record.platforms = platforms;
  for (const assignment of record.assignments ?? []) {
    if (assignment.target) Object.assign(assignment.target, { deviceAndAppManagementAssignmentFilterId: null, deviceAndAppManagementAssignmentFilterType: 'none' });
  }
  return id;
}

export const settingConflictsDemo: readonly DemoStep<ConflictFindingKind>[] = [
  {
    step: 17,
    plant(tenant) {
      const engineering = tenant.addGroup({ displayName: 'Engineering devices', memberCount: 4 });
      const leads = tenant.addGroup({ displayName: 'Engineering leads', memberCount: 2 });
      const include = (groupId: string): Target => ({ kind: 'include', groupId });

      // Two policies reach one group and set cloud protection on and off: "Intune generates an error
      // and doesn't apply either setting" (learn.microsoft.com/intune/solutions/education/tutorial-school-deployment/policy-conflicts).
      // A Defender setting: high.
      policy(tenant, 'Defender - cloud protection on (Engineering)', [choiceSetting(CLOUD_PROTECTION, '1')], [include(engineering)]);
      policy(tenant, 'Defender - cloud protection off for builds (Engineering)', [choiceSetting(CLOUD_PROTECTION, '0')], [include(engineering)]);
      tenant.declare('security-setting-conflict', CLOUD_PROTECTION);

      // Two policies to All devices, the camera allowed and blocked: a conflict on a setting that is not a security one (medium).
      policy(tenant, 'Devices - camera allowed', [choiceSetting(CAMERA, '1')], [{ kind: 'allDevices' }]);
      policy(tenant, 'Devices - camera blocked (meeting rooms)', [choiceSetting(CAMERA, '0')], [{ kind: 'allDevices' }]);
      tenant.declare('setting-conflict', CAMERA);

      // The same value twice, to the same group: a duplicate, not a conflict (a conflict is the same
      // setting "with different values", learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-asr-policy).
      policy(tenant, 'Engineering - Cortana off', [choiceSetting(CORTANA, '0')], [include(engineering)]);
      policy(tenant, 'Engineering - privacy settings', [choiceSetting(CORTANA, '0')], [include(engineering)]);
      tenant.declare('duplicate-setting', CORTANA);

      // Different values to two different groups whose whole member lists (fewer than 20, as Graph's
      // expanded list gives them: learn.microsoft.com/graph/query-parameters#expand-parameter) share
      // two users, the leads: "Exclusion takes precedence over inclusion" aside (neither excludes),
      // both reach them, so a conflict, the users counted.
      policy(tenant, 'Updates - active hours from 8 (Engineering)', [integerSetting(ACTIVE_HOURS_START, 8)], [include(engineering)]);
      policy(tenant, 'Updates - active hours from 9 (Engineering leads)', [integerSetting(ACTIVE_HOURS_START, 9)], [include(leads)]);
      tenant.declare('setting-conflict', ACTIVE_HOURS_START);

      // All devices except a group, and that group: Intune applies an exclusion only to members of the
      // type the inclusion reaches (learn.microsoft.com/en-us/mem/intune/configuration/device-profile-assign),
      // and the kind of the group's members is not read: possible, saying so.
      policy(
        tenant,
        'Updates - active hours until 17 (all but Engineering)',
        [integerSetting(ACTIVE_HOURS_END, 17)],
        [{ kind: 'allDevices' }, { kind: 'exclude', groupId: engineering }],
      );
      policy(tenant, 'Updates - active hours until 20 (Engineering)', [integerSetting(ACTIVE_HOURS_END, 20)], [include(engineering)]);
      tenant.declare('possible-setting-conflict', ACTIVE_HOURS_END);

      // Defender exclusions merge across policies into one list ("Settings and CSPs that support policy
      // merge", learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-antivirus-policy): never a conflict.
      policy(tenant, 'Defender - build tool exclusions', [stringListSetting(EXCLUDED_PATHS, ['C:\\Build'])], [{ kind: 'allDevices' }]);
      policy(tenant, 'Defender - line-of-business exclusions', [stringListSetting(EXCLUDED_PATHS, ['C:\\LOB'])], [{ kind: 'allDevices' }]);

      // Two firewall rule policies to All devices with one rule each, different rules (their names,
      // actions and ports differ). The rules' collection may hold many entries (its definition's
      // maximumCount), so each policy's one entry is a rule of a list, not one group whose children
      // conflict; and devices merge the rules of several policies: "When rules from multiple rules
      // profiles don't conflict with each other, devices merge the rules from each profile"
      // (learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-firewall-policy). No finding.
      policy(tenant, 'Firewall - allow remote desktop', [firewallRulesSetting({ name: 'Allow RDP', action: 'allow', ports: ['3389'] })], [{ kind: 'allDevices' }]);
      policy(tenant, 'Firewall - block SMB inbound', [firewallRulesSetting({ name: 'Block SMB', action: 'block', ports: ['445'] })], [{ kind: 'allDevices' }]);

      // Defender for Endpoint onboarding in two policies to one group. The onboarding blob is a
      // secret: Graph returns it as `deviceManagementConfigurationSecretSettingValue` with
      // `valueState` `encryptedValueToken`, a token per policy, not the blob (Graph beta,
      // deviceManagementConfigurationSecretSettingValue), so two policies cannot be compared and the
      // report never keeps or shows the token: a possible conflict, saying the values are secret.
      for (const [name, token] of [
        ['Defender for Endpoint - onboarding (Engineering)', SECRET_TOKENS[0]],
        ['Defender for Endpoint - onboarding, second tenant blob (Engineering)', SECRET_TOKENS[1]],
      ] as const) {
        policy(tenant, name, [secretSetting(ONBOARDING, token)], [include(engineering)]);
      }
      tenant.declare('possible-setting-conflict', ONBOARDING);

      // Report 3's firewall policies set the private profile on (All devices) and off (Finance
      // devices, through a policy set): whether a device gets both is not told by report 2's records
      // (report 3's demo assigns them without their filter fields, unread), so it is possible.
      tenant.declare('possible-setting-conflict', 'vendor_msft_firewall_mdmstore_privateprofile_enablefirewall');

      // Different values, but one policy reaches no one (an empty group): disjoint, no conflict. Report 2 finds the empty group.
      policy(tenant, 'Diagnostics - full (Engineering)', [choiceSetting(TELEMETRY, '3')], [include(engineering)]);
      const nobody = policy(tenant, 'Diagnostics - basic (empty group)', [choiceSetting(TELEMETRY, '1')], [include(tenant.groups.emptyGroup)]);
      tenant.declareFor('assignment-hygiene', 'assigned-to-missing-or-empty-groups', nobody);
    },
  },
  {
    step: 18,
    plant(tenant) {
      // What devices already reported: Intune's conflict summary for device configuration profiles
      // (deviceConfigurationConflictSummary, learn.microsoft.com/graph/api/resources/intune-deviceconfig-deviceconfigurationconflictsummary?view=graph-rest-beta),
      // each entry's id the profiles' ids in lexicographical order joined by underscores. Two legacy
      // profiles that set the camera differently, and two that set the password length differently,
      // reach one group; devices reported both pairs.
      const kiosks = tenant.addGroup({ displayName: 'Front desk devices', memberCount: 3 });
      const profile = (displayName: string, settings: Record<string, unknown>) => {
        const item = deviceConfiguration({ id: tenant.guid(), displayName, targets: [{ kind: 'include', groupId: kiosks }], now: tenant.now });
        tenant.add('deviceConfigurations', Object.assign(item, settings));
        return { id: item.id, displayName };
      };
      const summary = (profiles: Array<{ id: string; displayName: string }>, contributingSettings: string[], deviceCheckinsImpacted: number) => {
        const sorted = [...profiles].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        const entry = {
          '@odata.type': '#microsoft.graph.deviceConfigurationConflictSummary',
          id: sorted.map((item) => item.id).join('_'),
          conflictingDeviceConfigurations: sorted.map((item) => ({ id: item.id, displayName: item.displayName, sourceType: 'deviceConfiguration' as const })),
          contributingSettings,
          deviceCheckinsImpacted,
        } satisfies Beta.DeviceConfigurationConflictSummary & { '@odata.type': string };
        tenant.add('deviceConfigurationConflictSummary', asDemoRecord(entry));
        return entry.id;
      };
      const camera = [profile('Front desk - device restrictions', { cameraBlocked: false }), profile('Front desk - camera blocked', { cameraBlocked: true })];
      tenant.declare('reported-setting-conflict', summary(camera, ['cameraBlocked'], 7));
      const password = [profile('Front desk - password (8)', { passwordMinimumLength: 8 }), profile('Front desk - password (12)', { passwordMinimumLength: 12 })];
      tenant.declare('reported-setting-conflict', summary(password, ['passwordMinimumLength'], 3));
      // Report 7 reads these device restrictions profiles' fields too (classic-profiles.ts): the two
      // password lengths to one group are predicted as a conflict of their own; "Camera blocked"
      // meets the policy to All devices that allows the camera (its field's CSP is Camera/AllowCamera),
      // through the group's users' enrolled PCs. The profile that leaves the camera Not configured sets nothing.
      tenant.declare('setting-conflict', 'windows10GeneralConfiguration/passwordMinimumLength');
    },
  },
  {
    // Planted after every other report's records, so the ids drawn before it stay as they were.
    step: 19,
    plant(tenant) {
      const include = (groupId: string): Target => ({ kind: 'include', groupId });
      const users = tenant.users;
      // A group nested in another: its members are members of the parent too (Microsoft Entra,
      // "Add a group to another group": nested groups "can be used for membership"), so a policy to
      // the parent reaches the nested group's users, and a policy to the nested group reaches them
      // alike. The parent holds users and the nested group; both lists are seen whole.
      const buildAgents = tenant.addGroup({ displayName: 'Build agents', userIds: users.slice(50, 52) });
      const platform = tenant.addGroup({ displayName: 'Platform engineering', userIds: users.slice(52, 54), groupIds: [buildAgents] });
      // Scheduled Install Day is a choice in the settings catalog, its options 0 "Every day" and 1 to 7
      // Sunday to Saturday (Policy CSP - Update, ScheduledInstallDay,
      // learn.microsoft.com/windows/client-management/mdm/policy-csp-update#scheduledinstallday).
      policy(tenant, 'Updates - install on Mondays (Platform engineering)', [choiceSetting(INSTALL_DAY, '2')], [include(platform)]);
      policy(tenant, 'Updates - install on Saturdays (Build agents)', [choiceSetting(INSTALL_DAY, '7')], [include(buildAgents)]);
      tenant.declare('setting-conflict', INSTALL_DAY);

      // Two small groups seen whole, no user in both and no nesting: no one is reached by both, so
      // different values make no finding at all.
      const reception = tenant.addGroup({ displayName: 'Reception staff', userIds: users.slice(54, 56) });
      const warehouse = tenant.addGroup({ displayName: 'Warehouse staff', userIds: users.slice(56, 58) });
      policy(tenant, 'Lock after 5 minutes (Reception staff)', [integerSetting(INACTIVITY_LOCK, 5)], [include(reception)]);
      policy(tenant, 'Lock after 15 minutes (Warehouse staff)', [integerSetting(INACTIVITY_LOCK, 15)], [include(warehouse)]);

      // A group of 25 users: Graph's expanded list gives the first 20 only, so the two users of the
      // other group (the last of the 25) are not among those seen, and whether they are in both cannot
      // be told: a possible conflict, saying which group was not seen whole.
      const site = tenant.addGroup({ displayName: 'Head office (25 users)', userIds: users.slice(30, 55) });
      const visitors = tenant.addGroup({ displayName: 'Meeting room hosts', userIds: users.slice(53, 55) });
      policy(tenant, 'Updates - install at 3:00 (Head office)', [integerSetting(INSTALL_TIME, 3)], [include(site)]);
      policy(tenant, 'Updates - install at 22:00 (Meeting room hosts)', [integerSetting(INSTALL_TIME, 22)], [include(visitors)]);
      tenant.declare('possible-setting-conflict', INSTALL_TIME);

      // Device control: two policies to one group block installation by different setup classes
      // (printers; Bluetooth). Intune merges the two lists into one for the device ("Policy merge for
      // device control profiles", learn.microsoft.com/intune/intune-service/protect/endpoint-security-asr-policy):
      // never a conflict, nor a duplicate of the setting both enable.
      for (const [name, setupClass] of [
        ['Device control - block printers (Build agents)', PRINTER_SETUP_CLASS],
        ['Device control - block Bluetooth (Build agents)', BLUETOOTH_SETUP_CLASS],
      ] as const) {
        policy(
          tenant,
          name,
          [
            choiceSetting(SETUP_CLASSES_BLOCKED, '1', [
              choiceSetting(`${SETUP_CLASSES_BLOCKED}_deviceinstall_classes_deny_retroactive`, '0'),
              stringListSetting(SETUP_CLASSES_BLOCKED_LIST, [setupClass]),
            ]),
          ],
          [include(buildAgents)],
        );
      }

      // A policy to All devices and one to a group of users, both for macOS, setting the password
      // delay differently. Intune delivers the group's policy to its users' devices and the other to
      // every enrolled device, so a Mac enrolled by one of those users gets both: a conflict, proven
      // by that user's enrolled devices (`GET /users/{id}/managedDevices`), as "what applies" finds
      // on that Mac through its primary user. The group's other user enrolled no Mac.
      const macUser = macOwner(tenant);
      const design = tenant.addGroup({ displayName: 'Design team', userIds: [macUser, users.find((user) => user !== macUser && !macOwners(tenant).includes(user))!] });
      policy(tenant, 'Mac - password 5 seconds after the screen saver (all Macs)', [integerSetting(PASSWORD_DELAY, 5)], [{ kind: 'allDevices' }], 'macOS');
      policy(tenant, 'Mac - password 60 seconds after the screen saver (Design team)', [integerSetting(PASSWORD_DELAY, 60)], [include(design)], 'macOS');
      tenant.declare('setting-conflict', PASSWORD_DELAY);
    },
  },
  {
    // After every other report's records, so the ids drawn before it stay as they were.
    step: 20,
    plant(tenant) {
      // Two device restrictions profiles to one group, the password expiring after 30 and 90 days:
      // predicted as a conflict from the profiles' fields, and not in what devices reported yet (the
      // conflict summary holds the front desk's two pairs only), so the report's line counts one of
      // each kind: confirmed, not reported yet, and reported but not predicted.
      const lobby = tenant.addGroup({ displayName: 'Lobby screens', userIds: [tenant.users[58]!] });
      for (const [displayName, days] of [
        ['Lobby - password expires after 30 days', 30],
        ['Lobby - password expires after 90 days', 90],
      ] as const) {
        const item = deviceConfiguration({ id: tenant.guid(), displayName, targets: [{ kind: 'include', groupId: lobby }], now: tenant.now });
        tenant.add('deviceConfigurations', Object.assign(item, { passwordExpirationDays: days }));
      }
      tenant.declare('setting-conflict', 'windows10GeneralConfiguration/passwordExpirationDays');
    },
  },
];

/** The users whose Macs report 4's demo enrolled, by the index in their devices' user principal names (`user<n>@`; "what applies" makes it each device's `userId`). */
function macOwners(tenant: Pick<Tenant, 'records' | 'users'>): string[] {
  return tenant
    .records('managedDevices')
    .filter((device) => device.operatingSystem === 'macOS')
    .flatMap((device) => {
      const index = /^user(\d+)@/.exec(String(device.userPrincipalName ?? ''))?.[1];
      const user = index === undefined ? undefined : tenant.users[Number(index)];
      return user ? [user] : [];
    });
}

/** The first user who enrolled a Mac in the demo. */
function macOwner(tenant: Pick<Tenant, 'records' | 'users'>): string {
  const [owner] = macOwners(tenant);
  if (!owner) throw new Error("the demo's devices hold no Mac with a user");
  return owner;
}
