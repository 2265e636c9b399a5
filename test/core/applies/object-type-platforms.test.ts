import { describe, expect, it } from 'vitest';
import { objectPlatform } from '../../../src/core/policy-settings/platform.js';
import { typeLabel } from '../../../src/core/applies/object-types.js';

/**
 * Which platform each object type only beta has is for (docs/finding-rules.md, "What applies",
 * "Object types"): told by the type where Microsoft documents one platform for it, by `platforms`
 * for settings catalog compliance, by the template's `platformType` for an intent, never guessed.
 */
describe('the platforms of the object types only beta has', () => {
  it.each([
    ['administrativeTemplate', 'windows', 'Administrative templates'],
    ['featureUpdateProfile', 'windows', 'Windows updates'],
    ['qualityUpdateProfile', 'windows', 'Windows updates'],
    ['qualityUpdatePolicy', 'windows', 'Windows updates'],
    ['driverUpdateProfile', 'windows', 'Windows updates'],
    ['macOSShellScript', 'macOS', 'macOS shell scripts'],
  ] as const)('%s is for %s, listed under %s', (kind, platform, label) => {
    expect(objectPlatform({ kind })).toEqual({ kind: 'for', platforms: [platform] });
    expect(typeLabel({ kind })).toBe(label);
  });

  it('a settings catalog compliance policy is for the platforms it names, with the compliance policies', () => {
    expect(objectPlatform({ kind: 'settingsCompliancePolicy', platforms: 'linux' })).toEqual({ kind: 'for', platforms: ['linux'] });
    expect(objectPlatform({ kind: 'settingsCompliancePolicy', platforms: null })).toMatchObject({ kind: 'unknown' });
    expect(typeLabel({ kind: 'settingsCompliancePolicy' })).toBe('Compliance policies');
  });

  it("an intent is for its template's platform, any platform for `all`, and unknown with the reason when the template does not say", () => {
    expect(objectPlatform({ kind: 'intent', templatePlatform: { ok: true, value: 'windows10AndLater' } })).toEqual({ kind: 'for', platforms: ['windows'] });
    expect(objectPlatform({ kind: 'intent', templatePlatform: { ok: true, value: 'macOS' } })).toEqual({ kind: 'for', platforms: ['macOS'] });
    expect(objectPlatform({ kind: 'intent', templatePlatform: { ok: true, value: 'all' } })).toEqual({ kind: 'any' });
    expect(objectPlatform({ kind: 'intent', templatePlatform: { ok: true, value: 'windowsPhone81' } })).toMatchObject({ kind: 'unknown' });
    expect(objectPlatform({ kind: 'intent', templatePlatform: { ok: false, reason: 'the intent templates could not be read (Graph answered 500)' } })).toEqual({
      kind: 'unknown',
      reason: 'the intent templates could not be read (Graph answered 500)',
    });
    expect(objectPlatform({ kind: 'intent' })).toMatchObject({ kind: 'unknown' });
    expect(typeLabel({ kind: 'intent' })).toBe('Endpoint security policies');
  });
});
