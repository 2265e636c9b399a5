/** Report 2's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { describeGroup } from '../../directory/group-lookup.js';
import type { GroupLookup } from '../../directory/group-lookup.js';
import { compareText, plural } from '../graph-values.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportRow } from '../report-model.js';
import { severityTone } from '../report-model.js';
import { ASSIGNMENT_FINDING_KINDS } from './finding-kinds.js';
import type { AssignmentFindingKind } from './finding-kinds.js';
import type { AssignableKind, AssignmentRecords, AssignmentTarget } from './load.js';

const KIND_LABELS: Record<AssignableKind, string> = {
  deviceConfiguration: 'Configuration profile',
  compliancePolicy: 'Compliance policy',
  settingsCatalogPolicy: 'Settings catalog policy',
  mobileApp: 'App',
  platformScript: 'Platform script',
  remediation: 'Remediation',
};

/**
 * What the specification's `/v1.0` reads cannot show: Graph's v1.0 schema does not declare these
 * types, and its lists leave them out without a word (the full list: src/sim/v1-schema.ts, from
 * Microsoft's published v1.0 and beta metadata).
 */
export const V1_COVERAGE_NOTICE =
  "Not shown: Graph's /v1.0 lists leave out every profile, policy and app type that only its beta schema has, " +
  'among them Wi-Fi, VPN, certificate (SCEP, PKCS, PFX, trusted root), email and wired-network profiles, Android Enterprise ' +
  'fully managed and AOSP profiles, Windows kiosk, domain join and delivery optimisation profiles; Android Enterprise device ' +
  'owner and AOSP compliance policies; Microsoft 365 Apps, Microsoft Store (WinGet), macOS PKG and managed Google Play apps. ' +
  'Set GRAPH_BETA_COVERAGE=true to read these lists on /beta and include them.';

export type HygieneVerdict =
  | { kind: 'unassigned' }
  | { kind: 'exclusions-only' }
  | { kind: 'assigned-to-missing-or-empty-groups'; groups: GroupLookup[] }
  | { kind: 'all-users-and-all-devices'; intents: { allUsers: string | null; allDevices: string | null } }
  | { kind: 'unknown-groups'; groups: GroupLookup[] }
  | { kind: 'unknown-assignments' }
  | { kind: 'ok' };

/** The rules of docs/finding-rules.md, report 2, for one object. */
export function classifyAssignments(targets: readonly AssignmentTarget[] | null, groups: ReadonlyMap<string, GroupLookup>): HygieneVerdict {
  if (targets === null) return { kind: 'unknown-assignments' };
  if (targets.length === 0) return { kind: 'unassigned' };
  const allUsers = targets.find((target) => target.type === 'allUsers');
  const allDevices = targets.find((target) => target.type === 'allDevices');
  if (allUsers && allDevices) return { kind: 'all-users-and-all-devices', intents: { allUsers: allUsers.intent, allDevices: allDevices.intent } };
  if (targets.every((target) => target.type === 'exclude')) return { kind: 'exclusions-only' };
  // Any broad or unresolvable include reaches someone (or might): never a finding.
  if (targets.some((target) => target.type === 'allUsers' || target.type === 'allDevices' || target.type === 'configMgrCollection' || target.type === 'other'))
    return { kind: 'ok' };
  const included = targets
    .filter((target) => target.type === 'include')
    .map((target) => groups.get(target.groupId) ?? { state: 'unknown' as const, id: target.groupId, error: { message: 'not looked up' } });
  if (included.some((group) => group.state === 'found' && !group.isEmpty)) return { kind: 'ok' };
  const unknown = included.filter((group) => group.state === 'unknown');
  if (unknown.length > 0) return { kind: 'unknown-groups', groups: unknown };
  return { kind: 'assigned-to-missing-or-empty-groups', groups: included };
}

function groupLabel(group: GroupLookup | undefined, id: string): string {
  return describeGroup(group ?? { state: 'unknown', id, error: { message: 'not looked up' } });
}

function describeTargets(targets: readonly AssignmentTarget[] | null, groups: ReadonlyMap<string, GroupLookup>): string {
  if (targets === null) return 'Not returned by Graph';
  if (targets.length === 0) return 'None';
  const withIntent = (text: string, intent: string | null) => (intent ? `${text} [${intent}]` : text);
  const include: string[] = [];
  const exclude: string[] = [];
  for (const target of targets) {
    if (target.type === 'allUsers') include.push(withIntent('All users', target.intent));
    else if (target.type === 'allDevices') include.push(withIntent('All devices', target.intent));
    else if (target.type === 'include') include.push(withIntent(groupLabel(groups.get(target.groupId), target.groupId), target.intent));
    else if (target.type === 'exclude') exclude.push(groupLabel(groups.get(target.groupId), target.groupId));
    else if (target.type === 'configMgrCollection') include.push(`Configuration Manager collection ${target.collectionId}`);
    else include.push(target.odataType || 'unrecognised target');
  }
  return [include.length > 0 ? `Include: ${include.join('; ')}` : '', exclude.length > 0 ? `Exclude: ${exclude.join('; ')}` : ''].filter(Boolean).join(' · ');
}

const STATUS_LABELS: Record<HygieneVerdict['kind'], string> = {
  unassigned: 'Never assigned',
  'exclusions-only': 'Exclusions only',
  'assigned-to-missing-or-empty-groups': 'Only deleted or empty groups',
  'all-users-and-all-devices': 'All users and All devices',
  'unknown-groups': 'Could not check',
  'unknown-assignments': 'Could not check: Graph returned no assignments for it',
  ok: 'OK',
};

const STATUS_ORDER: Record<HygieneVerdict['kind'], number> = {
  'assigned-to-missing-or-empty-groups': 0,
  'exclusions-only': 1,
  'all-users-and-all-devices': 2,
  unassigned: 3,
  'unknown-groups': 4,
  'unknown-assignments': 4,
  ok: 5,
};

function findingDetail(verdict: HygieneVerdict, kindLabel: string): string {
  switch (verdict.kind) {
    case 'unassigned':
      return `${kindLabel} has no assignment, so it applies to nobody.`;
    case 'exclusions-only':
      return `${kindLabel} is assigned only through exclusion groups; an exclusion only subtracts, so it applies to nobody.`;
    case 'assigned-to-missing-or-empty-groups':
      return `Every included group is deleted or empty: ${verdict.groups.map((group) => groupLabel(group, group.id)).join(', ')}.`;
    case 'all-users-and-all-devices': {
      const intents =
        verdict.intents.allUsers || verdict.intents.allDevices ? ` (All users: ${verdict.intents.allUsers ?? 'n/a'}; All devices: ${verdict.intents.allDevices ?? 'n/a'})` : '';
      return `Assigned to both All users and All devices, so it can apply twice and conflict${intents}.`;
    }
    default:
      return '';
  }
}

/** A finding's status is as loud as the finding; an object that could not be checked has no verdict. */
function statusTone(verdict: HygieneVerdict): CellTone {
  if (verdict.kind === 'ok') return 'ok';
  if (verdict.kind === 'unknown-groups' || verdict.kind === 'unknown-assignments') return 'neutral';
  return severityTone(ASSIGNMENT_FINDING_KINDS[verdict.kind].severity);
}

export function deriveAssignmentHygiene(records: AssignmentRecords, _context: DeriveContext): DerivedReport<AssignmentFindingKind> {
  const rows: Array<ReportRow & { order: number }> = [];
  const findings: FindingDraft<AssignmentFindingKind>[] = [];
  for (const object of records.objects) {
    const verdict = classifyAssignments(object.targets, records.groups);
    const kindLabel = KIND_LABELS[object.kind];
    const status =
      verdict.kind === 'unknown-groups'
        ? `Could not check: ${verdict.groups.length} group${verdict.groups.length === 1 ? '' : 's'} could not be read`
        : STATUS_LABELS[verdict.kind];
    rows.push({
      id: object.id,
      type: kindLabel,
      name: object.name,
      assignments: describeTargets(object.targets, records.groups),
      status,
      statusTone: statusTone(verdict),
      link: object.link,
      order: STATUS_ORDER[verdict.kind],
    });
    if (verdict.kind !== 'ok' && verdict.kind !== 'unknown-groups' && verdict.kind !== 'unknown-assignments') {
      findings.push({ kind: verdict.kind, subjectId: object.id, subjectName: `${kindLabel}: ${object.name}`, detail: findingDetail(verdict, kindLabel) });
    }
  }
  rows.sort((a, b) => a.order - b.order || compareText(String(a.type), String(b.type)) || compareText(String(a.name), String(b.name)));
  const { catalogueApps, builtInScripts } = records.leftOut;
  const leftOut = [
    catalogueApps > 0 ? plural(catalogueApps, 'Microsoft catalogue app') : '',
    builtInScripts > 0 ? plural(builtInScripts, 'built-in remediation script') : '',
  ].filter(Boolean);
  const notices = [
    leftOut.length > 0 ? `Left out, as the Intune admin center leaves them out: ${leftOut.join(' and ')} (Microsoft's own, present in every tenant).` : '',
    records.betaCoverage ? '' : V1_COVERAGE_NOTICE,
  ].filter(Boolean);
  return {
    state: 'loaded',
    notice: notices.length > 0 ? notices.join(' ') : null,
    columns: [
      { key: 'type', label: 'Type', available: true, format: 'text' },
      { key: 'name', label: 'Name', available: true, format: 'text' },
      { key: 'status', label: 'Status', available: true, format: 'status', toneKey: 'statusTone' },
      { key: 'assignments', label: 'Assignments', available: true, format: 'text' },
    ],
    rows: rows.map(({ order: _order, ...row }) => row),
    findings,
  };
}
