import { plantConfigurationPolicy } from '../demo-records.js';
import type { Target } from '../demo-records.js';
import type { DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { PostureFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';

type Tenant = DemoTenantBuilder<PostureFindingKind>;

function asrPolicy(tenant: Tenant, name: string, rules: Parameters<typeof records.asrRulesSetting>[0], targets: Target[]): string {
  return plantConfigurationPolicy(tenant, {
    name,
    templateFamily: 'endpointSecurityAttackSurfaceReduction',
    templateId: 'e8c053d6-9f95-42b1-a7f1-ebfd71c67a4b_1',
    templateDisplayName: 'Attack Surface Reduction Rules',
    technologies: 'mdm,microsoftSense',
    settings: [records.asrRulesSetting(rules)],
    targets,
  });
}

function firewallPolicy(tenant: Tenant, name: string, profiles: Partial<Record<'domain' | 'private' | 'public', 'true' | 'false'>>, targets: Target[]): string {
  return plantConfigurationPolicy(tenant, {
    name,
    templateFamily: 'endpointSecurityFirewall',
    templateId: '6078910e-d808-4a9f-a51d-1b8a7bacb7c0_1',
    templateDisplayName: 'Windows Firewall',
    settings: Object.entries(profiles).map(([profile, value]) => records.choiceSetting(`vendor_msft_firewall_mdmstore_${profile}profile_enablefirewall`, value)),
    targets,
  });
}

function windowsBaseline(tenant: Tenant, name: string, version: number, displayVersion: string, targets: Target[]): string {
  return plantConfigurationPolicy(tenant, {
    name,
    templateFamily: 'baseline',
    templateId: `66df8dce-0166-4b82-92f7-1f74e3ca17a3_${version}`,
    templateDisplayName: 'Security Baseline for Windows 10 and later',
    templateDisplayVersion: displayVersion,
    settings: [],
    targets,
  });
}

function template(tenant: Tenant, value: Omit<Parameters<typeof records.deviceManagementTemplate>[0], 'id'>): string {
  const item = records.deviceManagementTemplate({ id: tenant.guid(), ...value });
  tenant.add('templates', item);
  return item.id;
}

function intent(tenant: Tenant, displayName: string, templateId: string): string {
  const item = records.deviceManagementIntent({ id: tenant.guid(), displayName, templateId, now: tenant.now });
  tenant.add('intents', item);
  return item.id;
}

/**
 * Report 3 in the demo tenant: an ASR rule in audit, a firewall profile off, and baselines behind
 * their newest version (settings catalog and intent-era alike), beside look-alikes that are not
 * findings (a rule in warn, a profile left unconfigured, baselines on the newest version).
 */
export const securityPostureDemo: readonly DemoStep<PostureFindingKind>[] = [
  {
    step: 3,
    plant(tenant) {
      const { allStaff, pilot, finance } = tenant.groups;
      tenant.declare(
        'asr-rule-audit',
        asrPolicy(
          tenant,
          'ASR - Standard protection',
          {
            blockcredentialstealingfromwindowslocalsecurityauthoritysubsystem: 'block',
            blockpersistencethroughwmieventsubscription: 'audit',
            blockabuseofexploitedvulnerablesigneddrivers: 'audit',
          },
          [{ kind: 'include', groupId: allStaff }],
        ),
      );
      // Warn is a block with a user bypass: enforcing, so shown but not a finding.
      asrPolicy(
        tenant,
        'ASR - Office rules',
        {
          blockallofficeapplicationsfromcreatingchildprocesses: 'block',
          blockofficeapplicationsfromcreatingexecutablecontent: 'block',
          blockwin32apicallsfromofficemacros: 'warn',
        },
        [{ kind: 'include', groupId: pilot }],
      );
      tenant.declare('firewall-profile-off', firewallPolicy(tenant, 'Firewall - Corporate', { domain: 'true', private: 'true', public: 'false' }, [{ kind: 'allDevices' }]));
      // Only the domain profile is configured; the others are left to the device, which is not "off".
      firewallPolicy(tenant, 'Firewall - Lab', { domain: 'true' }, [{ kind: 'include', groupId: pilot }]);
      tenant.declare('baseline-outdated', windowsBaseline(tenant, 'Security baseline for Windows (23H2)', 3, 'Version 23H2', [{ kind: 'include', groupId: finance }]));
      windowsBaseline(tenant, 'Security baseline for Windows (24H2)', 4, 'Version 24H2', [{ kind: 'include', groupId: allStaff }]);
    },
  },
  {
    step: 5,
    plant(tenant) {
      // Legacy (intent-era) baselines and the templates they were made from.
      const mdm2020 = template(tenant, {
        displayName: 'MDM Security Baseline for Windows 10 and later for August 2020',
        templateType: 'securityBaseline',
        versionInfo: 'August 2020',
        publishedDateTime: '2020-08-17T00:00:00Z',
        isDeprecated: false,
      });
      const mdm2021 = template(tenant, {
        displayName: 'MDM Security Baseline for Windows 10 and later for November 2021',
        templateType: 'securityBaseline',
        versionInfo: 'November 2021',
        publishedDateTime: '2021-11-15T00:00:00Z',
        isDeprecated: false,
      });
      const defenderV5 = template(tenant, {
        displayName: 'Microsoft Defender for Endpoint baseline',
        templateType: 'advancedThreatProtectionSecurityBaseline',
        versionInfo: 'Version 5',
        publishedDateTime: '2020-09-01T00:00:00Z',
        isDeprecated: true,
      });
      template(tenant, {
        displayName: 'Microsoft Defender for Endpoint baseline',
        templateType: 'advancedThreatProtectionSecurityBaseline',
        versionInfo: 'Version 6',
        publishedDateTime: '2021-12-01T00:00:00Z',
        isDeprecated: false,
      });
      const edge = template(tenant, {
        displayName: 'Microsoft Edge baseline',
        templateType: 'microsoftEdgeSecurityBaseline',
        versionInfo: 'September 2020',
        publishedDateTime: '2020-09-15T00:00:00Z',
        isDeprecated: false,
      });
      tenant.declare('baseline-outdated', intent(tenant, 'Windows baseline (2020)', mdm2020));
      intent(tenant, 'Windows baseline (2021)', mdm2021);
      tenant.declare('baseline-outdated', intent(tenant, 'Defender for Endpoint baseline (v5)', defenderV5));
      intent(tenant, 'Edge baseline', edge);
    },
  },
];
