/**
 * The demo's approved baseline and the drift it must show (RULES.md). The baseline is the app's
 * state, not the tenant's: `demoBaselineBook` makes it from the policies as they are now, approved
 * ten days ago by Dana, with what has drifted since put back as it was then. The server's and the
 * command line's demo start from it (src/app/baseline-records.ts); the tenant plants nothing for it,
 * and the step below declares the findings it must make.
 *
 * - "Updates - active hours from 8 (Engineering)": approved with active hours starting at 7; now 8.
 * - "OneDrive - Known folder move": approved for All devices; now assigned to All Staff.
 * - "ASR - Draft rules (unassigned)": approved while assigned to All devices; now assigned to no one.
 * - "Edge - Legacy settings": approved, and deleted since.
 * - "Firewall - Lab": approved as it is: no drift (the look-alike).
 */

import type { DemoStep } from '../report-demo.js';
import { settingValues } from '../../policy-settings/setting-values.js';
import { approvedSetting } from './baseline-book.js';
import type { ApprovedPolicy, BaselineBook } from './baseline-book.js';
import type { DriftFindingKind } from './finding-kinds.js';
import type { CurrentPolicy } from './records.js';

export const DEMO_APPROVER = 'dana.lopez@contoso-demo.example';
/** The approved policy deleted since: not in the tenant, so its id is the demo's own. */
export const DEMO_DELETED_POLICY = { policyId: 'e1d9a7c3-4b2f-4c8e-9a6d-3f7b1e0c5d24', policyName: 'Edge - Legacy settings' } as const;

const ACTIVE_HOURS = 'Updates - active hours from 8 (Engineering)';
const ONEDRIVE = 'OneDrive - Known folder move';
const DRAFT_ASR = 'ASR - Draft rules (unassigned)';
const LAB_FIREWALL = 'Firewall - Lab';

/** The findings the demo's baseline makes, by policy name (the deleted one by its id). */
const DEMO_DRIFT: ReadonlyArray<{ kind: DriftFindingKind; policy: string }> = [
  { kind: 'setting-drifted', policy: ACTIVE_HOURS },
  { kind: 'approved-policy-reassigned', policy: ONEDRIVE },
  { kind: 'approved-policy-unassigned', policy: DRAFT_ASR },
];

const ALL_DEVICES = [{ key: 'allDevices|none', words: 'All devices' }];

/** Active hours starting at 7, as report 3 reads an integer setting (setting-values.ts). */
function activeHoursFrom7(): ReturnType<typeof approvedSetting> {
  const [value] = settingValues([
    {
      settingInstance: {
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
        settingDefinitionId: 'device_vendor_msft_policy_config_update_activehoursstart',
        simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationIntegerSettingValue', value: 7 },
      },
    },
  ]);
  return approvedSetting(value!, 'Active Hours Start');
}

/** The demo's approved baseline, from the policies as they are now; null where the demo's policies are not all there (another tenant). */
export function demoBaselineBook(current: ReadonlyMap<string, CurrentPolicy>, now: Date): BaselineBook | null {
  const named = (name: string) => [...current.values()].find((policy) => policy.policyName === name);
  const policies = [ACTIVE_HOURS, ONEDRIVE, DRAFT_ASR, LAB_FIREWALL].map(named);
  if (policies.some((policy) => !policy?.settings)) return null;
  const [activeHours, oneDrive, draftAsr, labFirewall] = policies as CurrentPolicy[];
  const approvedAt = new Date(now.getTime() - 10 * 86_400_000).toISOString();
  const approve = (policy: CurrentPolicy, changes: Partial<Pick<ApprovedPolicy, 'settings' | 'assignments'>> = {}): ApprovedPolicy => ({
    policyId: policy.policyId,
    policyName: policy.policyName,
    approvedAt,
    approvedBy: DEMO_APPROVER,
    settings: policy.settings ?? [],
    assignments: policy.assignments,
    ...changes,
  });
  const approved: ApprovedPolicy[] = [
    approve(activeHours!, {
      settings: activeHours!.settings!.map((setting) =>
        setting.settingDefinitionId === 'device_vendor_msft_policy_config_update_activehoursstart' ? activeHoursFrom7() : setting,
      ),
    }),
    approve(oneDrive!, { assignments: ALL_DEVICES }),
    approve(draftAsr!, { assignments: ALL_DEVICES }),
    approve(labFirewall!),
    {
      ...DEMO_DELETED_POLICY,
      approvedAt,
      approvedBy: DEMO_APPROVER,
      settings: [
        approvedSetting(
          { settingDefinitionId: 'device_vendor_msft_policy_config_microsoft_edge_syncdisabled', value: 'true', display: 'Enabled', secret: false },
          'Disable synchronization of data using Microsoft sync services',
        ),
      ],
      assignments: ALL_DEVICES,
    },
  ];
  return {
    version: 1,
    policies: Object.fromEntries(approved.map((policy) => [policy.policyId.toLowerCase(), policy])),
    audit: approved.map((policy) => ({ at: approvedAt, by: DEMO_APPROVER, action: 'approve' as const, policyId: policy.policyId, policyName: policy.policyName })),
  };
}

export const baselineDriftDemo: readonly DemoStep<DriftFindingKind>[] = [
  {
    // After every other report's steps: it plants nothing, so no id moves.
    step: 21,
    plant(tenant) {
      for (const { kind, policy } of DEMO_DRIFT) {
        const found = tenant.records('configurationPolicies').find((record) => record.name === policy);
        if (!found) throw new Error(`the demo has no policy "${policy}"`);
        tenant.declare(kind, found.id);
      }
      tenant.declare('approved-policy-deleted', DEMO_DELETED_POLICY.policyId);
    },
  },
];
