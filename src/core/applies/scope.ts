/**
 * "What applies" for a viewer limited to scope tags (docs/finding-rules.md, "What applies", "For a
 * viewer limited to scope tags"). Pure. Microsoft's rule
 * (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags): "Scope tags
 * determine which objects admins can see"; admins "can see Intune objects that also have" one of
 * their assignment's tags, and untagged objects carry Default. A managed device is such an object
 * (it carries `roleScopeTagIds`), and so is each policy, app and script an answer lists. Scope
 * (Groups) decide which users and devices the admins may act on, not what they see; this app takes
 * no action, so they narrow nothing here, as elsewhere ("Viewer scope").
 */

import type { AssignableObject } from '../reports/assignment-hygiene/records.js';
import type { SecurityPostureRecords } from '../reports/security-posture/records.js';
import { reportOpensTo } from '../viewer-scope/scope-report.js';
import { describeScope, visibleTo } from '../viewer-scope/scope.js';
import type { ViewerScope } from '../viewer-scope/scope.js';
import type { AppliesScopeNote } from './applies-result.js';
import type { AppliesAnswer } from './derive.js';

/**
 * The scope tags of the objects an answer may list, by lower-case id, as far as the records tell.
 * An object's own record from report 2 carries them where it was read on beta with
 * `roleScopeTagIds` (docs/finding-rules.md, "Viewer scope", "Which reports are scoped"); report 3's
 * carry them for its settings catalog policies and intents, whatever report 2's coverage. Every
 * other object's tags are unknown (null), and a scoped viewer is not shown it.
 */
export function objectScopeTags(posture: SecurityPostureRecords | null): (object: Pick<AssignableObject, 'kind' | 'id' | 'roleScopeTagIds'>) => readonly string[] | null {
  const policies = new Map<string, readonly string[] | null>();
  const intents = new Map<string, readonly string[] | null>();
  for (const policy of posture?.policies ?? []) policies.set(policy.id.toLowerCase(), policy.roleScopeTagIds ?? null);
  for (const intent of posture?.intents ?? []) if (intent.id) intents.set(intent.id.toLowerCase(), intent.roleScopeTagIds ?? null);
  return (object) => {
    if (object.roleScopeTagIds) return object.roleScopeTagIds;
    if (object.kind === 'settingsCatalogPolicy') return policies.get(object.id.toLowerCase()) ?? null;
    if (object.kind === 'intent') return intents.get(object.id.toLowerCase()) ?? null;
    return null;
  };
}

/** The assigned objects a viewer of `scope` may see: those carrying one of their tags; an object whose tags are unknown is left out. */
export function objectsInScope(
  objects: readonly AssignableObject[],
  scope: ViewerScope,
  tagsOf: (object: Pick<AssignableObject, 'kind' | 'id' | 'roleScopeTagIds'>) => readonly string[] | null,
): AssignableObject[] {
  return objects.filter((object) => visibleTo(scope, tagsOf(object)));
}

/**
 * The answer as a viewer of `scope` sees it: `scoped` is the answer derived from the objects in
 * their scope only (so its conflicts are only between shown policies), `whole` the answer from every
 * object, which says how many were left out. Only the count is said: not which objects, nor of which
 * types (docs/finding-rules.md, "What applies", "For a viewer limited to scope tags").
 */
export function scopedAnswer(scoped: AppliesAnswer, whole: AppliesAnswer, scope: ViewerScope): { answer: AppliesAnswer; note: AppliesScopeNote } {
  const count = (answer: AppliesAnswer) => answer.groups.reduce((sum, group) => sum + group.entries.length, 0);
  const hidden = Math.max(0, count(whole) - count(scoped));
  const scopeWords = describeScope(scope);
  const words =
    `Showing what your Intune role assignments let you see (${scopeWords}). ` +
    (hidden === 0
      ? 'No other assigned object reaches this device.'
      : `${hidden} more assigned object${hidden === 1 ? '' : 's'} reach${hidden === 1 ? 'es' : ''} this device but ${hidden === 1 ? 'is' : 'are'} not shown: outside your scope tags, or of a type whose scope tags this app does not read. Setting conflicts are checked between the policies shown only.`);
  return { answer: { ...scoped, notes: [words, ...scoped.notes] }, note: { scope: scopeWords, hidden, words } };
}

/** What a viewer whose Intune roles do not read what "what applies" shows is told, whatever they asked. */
export const APPLIES_NOT_READ_BY_ROLE =
  'What applies lists the policies, profiles, apps and scripts that reach a device, which Intune shows only to administrators whose role reads Device configurations, Device compliance policies, Mobile apps and Managed devices. Your Intune roles do not grant all of them, so this app answers you nothing here.';

/**
 * Whether "what applies" answers a viewer at all: it lists report 2's objects that reach a device, and
 * the device, so only a viewer whose roles open reports 2 and 4 (`reportOpensTo`, docs/finding-rules.md,
 * "Which role permissions open reports 2, 3 and 4"). Decided before any read, the same whatever was asked.
 */
export function appliesOpensTo(scope: ViewerScope): boolean {
  return reportOpensTo(scope, 'assignment-hygiene') && reportOpensTo(scope, 'escrow-gaps');
}

/**
 * What a viewer limited to scope tags is told when a question does not name exactly one device they
 * may see, the same whatever the reason (no such device, several, one outside their tags, one whose
 * tags Graph did not send, a user or a group), so that it does not reveal whether a device outside
 * their scope exists.
 */
export function outsideScopeWords(query: string, scope: ViewerScope): string {
  return (
    `"${query}" names no device your Intune role assignments let you see (${describeScope(scope)}): there may be none, it may carry none of your scope tags, or it could not be checked just now, and this app does not say which. ` +
    'Ask about one managed device by its name or id; users and groups carry no scope tags, so only whole-tenant viewers are answered about them.'
  );
}
