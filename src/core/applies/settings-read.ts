/**
 * The settings of only the policies that may reach one device, for its conflicts (docs/finding-rules.md,
 * "What applies", "Setting conflicts on a device"), where report 3's records, which hold every
 * policy's settings, are not at hand: a question asked first (the command line, or a server that has
 * not loaded report 3) reads a few policies' settings rather than the tenant's (docs/performance.md,
 * "What applies"). What each policy is comes from report 2's list, which selects the fields that
 * tell it (`technologies`, `settingCount`, assignment-hygiene/reads.ts); what it sets is read as
 * report 3 reads it (src/core/policy-settings/settings-read.ts, `readPolicySettings`), so both judge the same values.
 */

import type { GraphReader } from '../graph/graph-reader.js';
import type { AssignableObject } from '../reports/assignment-hygiene/records.js';
import { isAuditOnly, readPolicySettings } from '../policy-settings/settings-read.js';
import type { SettingsRead } from '../policy-settings/settings-read.js';
import type { ConflictPolicy } from '../policy-settings/conflict-policy.js';
import { readWhole } from '../policy-settings/conflict-policy.js';
import { MAY_APPLY } from './conflicts.js';
import type { ConflictSettings } from './conflicts.js';
import type { AppliesGroup } from './entry-types.js';

/**
 * The settings catalog policies of an answer that may reach the device (`MAY_APPLY`), as report 2
 * read them: the policies whose settings its conflicts compare (conflicts.ts, `deviceConflicts`).
 */
export function policiesThatMayApply(groups: readonly AppliesGroup[], objects: readonly AssignableObject[]): AssignableObject[] {
  const wanted = new Set<string>();
  for (const group of groups)
    for (const entry of group.entries) if (entry.kind === 'settingsCatalogPolicy' && MAY_APPLY.has(entry.verdict)) wanted.add(entry.objectId.toLowerCase());
  const policies = new Map<string, AssignableObject>();
  for (const object of objects) {
    const id = object.id.toLowerCase();
    if (object.kind === 'settingsCatalogPolicy' && wanted.has(id) && !policies.has(id)) policies.set(id, object);
  }
  return [...policies.values()];
}

/**
 * What `policies` set, as the conflict rules read it: each policy's settings from `known` (read for an
 * earlier question) or read now, twenty to a `$batch` call; `read` holds those read now, for the
 * caller to keep. A policy whose read failed, or came back shorter than its `settingCount` says, is
 * not compared, and the answer says why (as report 3's records say it, policy-settings/conflict-policy.ts,
 * `conflictPolicies`). Where every read failed (a permission refused, Graph down), nothing was
 * compared: the answer says that once, with Graph's answer, rather than once per policy.
 */
export async function readSettingsOf(
  graph: GraphReader,
  policies: readonly AssignableObject[],
  known: (id: string) => SettingsRead | undefined,
): Promise<{ settings: ConflictSettings; read: Map<string, SettingsRead> }> {
  const auditOnly = new Set<string>();
  const toRead: AssignableObject[] = [];
  const reads = new Map<string, SettingsRead>();
  for (const policy of policies) {
    // An audit-only baseline enforces nothing, and a policy Graph says has no settings needs no read.
    if (isAuditOnly({ technologies: policy.technologies ?? '' })) {
      auditOnly.add(policy.id.toLowerCase());
      continue;
    }
    if (policy.settingCount === 0) continue;
    const remembered = known(policy.id);
    if (remembered) reads.set(policy.id, remembered);
    else toRead.push(policy);
  }
  const read = toRead.length > 0 ? await readPolicySettings(graph, toRead, new AbortController().signal) : new Map<string, SettingsRead>();
  for (const [id, settings] of read) reads.set(id, settings);
  const failures = [...read.values()].filter((entry) => entry.settingsError !== null);
  if (failures.length > 0 && failures.length === reads.size) {
    const first = failures[0]!;
    return { settings: { state: 'failed', reason: first.readFailure ?? first.settingsError! }, read };
  }

  const names = new Map<string, string>();
  const compared: ConflictPolicy[] = [];
  for (const policy of policies) {
    if (auditOnly.has(policy.id.toLowerCase())) continue;
    const settings = reads.get(policy.id);
    const whole = settings === undefined ? policy.settingCount === 0 : readWhole(settings, policy.settingCount);
    compared.push({
      id: policy.id,
      name: policy.name,
      templateFamily: policy.templateFamily ?? 'none',
      platforms: policy.platforms ?? '',
      values: whole ? (settings?.values ?? []) : null,
      settingsError: whole ? null : (settings?.settingsError ?? 'its settings were not read in full'),
      link: policy.link,
    });
    for (const [id, name] of Object.entries(settings?.settingNames ?? {})) if (!names.has(id)) names.set(id, name);
  }
  return { settings: { state: 'read', policies: compared, auditOnly, names }, read };
}
