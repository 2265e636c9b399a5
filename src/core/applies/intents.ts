/**
 * Intune's resolution of an app's intents between the assignments that reach the subject
 * (docs/finding-rules.md, "What applies", "App intents, resolved before filters").
 */

/** The intents that win between the assignments that reach the subject, or why Microsoft's table does not say. */
export type IntentResolution = { kind: 'resolved'; winners: string[] } | { kind: 'unlisted'; words: string };

/**
 * Intune's resolution of conflicting app intents (Microsoft Learn, "Assign apps to groups with
 * Microsoft Intune", "How conflicts between app intents are resolved"), made before filters are
 * evaluated ("Filter reports and troubleshooting", "App intent"): Required wins over Uninstall
 * whatever the group types, and merges with Available into "Required and Available"; between
 * Available and Uninstall, Uninstall wins within one group type, while a user Available beside a
 * device Uninstall resolves Available. A pair the table does not list is not guessed.
 */
export function resolveIntents(intents: ReadonlyArray<{ intent: string; via: 'user' | 'device' }>): IntentResolution {
  const has = (intent: string, via?: 'user' | 'device') => intents.some((entry) => entry.intent === intent && (via === undefined || entry.via === via));
  const distinct = [...new Set(intents.map((entry) => entry.intent))];
  if (distinct.length <= 1) return { kind: 'resolved', winners: distinct };
  const known = ['required', 'available', 'uninstall', 'availableWithoutEnrollment'];
  const strange = distinct.find((intent) => !known.includes(intent));
  if (strange) return { kind: 'unlisted', words: `the intents ${distinct.join(', ')} conflict, and Microsoft's table does not list "${strange}"` };
  if (has('required')) {
    const winners = ['required'];
    if (has('available')) winners.push('available');
    // "User Available without enrollment | Device Required": "Required and Available without enrollment"; a user Required alone resolves Required.
    if (has('availableWithoutEnrollment') && has('required', 'device')) winners.push('availableWithoutEnrollment');
    return { kind: 'resolved', winners };
  }
  if (has('available') && has('uninstall')) {
    if ((has('available', 'user') && has('uninstall', 'user')) || (has('available', 'device') && has('uninstall', 'device'))) return { kind: 'resolved', winners: ['uninstall'] };
    if (has('available', 'user') && has('uninstall', 'device')) return { kind: 'resolved', winners: ['available'] };
    return { kind: 'unlisted', words: "a device Available beside a user Uninstall conflict, a pair Microsoft's table does not list" };
  }
  if (has('availableWithoutEnrollment') && has('available')) return { kind: 'resolved', winners: ['available'] };
  if (has('availableWithoutEnrollment') && has('uninstall', 'device') && !has('uninstall', 'user'))
    return { kind: 'resolved', winners: ['uninstall', 'availableWithoutEnrollment'] };
  return { kind: 'unlisted', words: `the intents ${distinct.join(' and ')} conflict in a way Microsoft's table does not list` };
}

export function intentWords(winners: readonly string[]): string {
  const words = winners.map((intent) => (intent === 'availableWithoutEnrollment' ? 'available without enrollment' : intent));
  return words.join(' and ');
}
