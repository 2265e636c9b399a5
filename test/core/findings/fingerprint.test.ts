import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findingFingerprint, sha256Hex } from '../../../src/core/findings/fingerprint.js';
import { nodeSha256Hex } from '../../../src/app/node-digest.js';

const DEVICE = '6f1c2a9e-0b7d-4c3e-9a51-2d8e7f4b1c0a';

describe('findingFingerprint', () => {
  it('is 32 lower-case hex characters', () => {
    expect(findingFingerprint('escrow-gaps', 'missing-recovery-key', DEVICE)).toMatch(/^[0-9a-f]{32}$/);
    expect(findingFingerprint('security-posture', 'asr-rule-audit', 'policy-1', 'rule-a,rule-b')).toMatch(/^[0-9a-f]{32}$/);
  });

  it('is stable for the same inputs', () => {
    const first = findingFingerprint('escrow-gaps', 'missing-recovery-key', DEVICE);
    expect(findingFingerprint('escrow-gaps', 'missing-recovery-key', DEVICE)).toBe(first);
    // Pinned, so a change of the hash input (which would re-post every finding after an upgrade) is deliberate.
    const expected = createHash('sha256')
      .update(JSON.stringify(['escrow-gaps', 'missing-recovery-key', DEVICE, '']))
      .digest('hex')
      .slice(0, 32);
    expect(first).toBe(expected);
  });

  it('ignores the case of the subject id, as Graph does', () => {
    expect(findingFingerprint('escrow-gaps', 'missing-laps-password', DEVICE.toUpperCase())).toBe(findingFingerprint('escrow-gaps', 'missing-laps-password', DEVICE));
    expect(findingFingerprint('admin-approval', 'area-unprotected', 'Device-Wipe')).toBe(findingFingerprint('admin-approval', 'area-unprotected', 'device-wipe'));
  });

  it('takes an absent rule key as the empty one', () => {
    expect(findingFingerprint('security-posture', 'baseline-outdated', 'intent-1', '')).toBe(findingFingerprint('security-posture', 'baseline-outdated', 'intent-1'));
  });

  it('differs by kind', () => {
    expect(findingFingerprint('escrow-gaps', 'missing-recovery-key', DEVICE)).not.toBe(findingFingerprint('escrow-gaps', 'missing-laps-password', DEVICE));
  });

  it('differs by report', () => {
    expect(findingFingerprint('startup-reliability', 'slow-startup', 'd-1')).not.toBe(findingFingerprint('escrow-gaps', 'slow-startup', 'd-1'));
  });

  it('differs by subject', () => {
    expect(findingFingerprint('startup-reliability', 'blue-screens', 'd-1')).not.toBe(findingFingerprint('startup-reliability', 'blue-screens', 'd-2'));
  });

  it('differs by rule key', () => {
    const audit = (ruleKey?: string) => findingFingerprint('security-posture', 'asr-rule-audit', 'policy-1', ruleKey);
    expect(audit('rule-a')).not.toBe(audit('rule-a,rule-b'));
    expect(audit('rule-a')).not.toBe(audit());
  });

  it('cannot be forged by shifting text between fields', () => {
    expect(findingFingerprint('ab', 'c', 'd')).not.toBe(findingFingerprint('a', 'bc', 'd'));
    expect(findingFingerprint('r', 'k', 'subject', 'rule')).not.toBe(findingFingerprint('r', 'k', 'subjectrule'));
    expect(findingFingerprint('r', 'k|x', 's')).not.toBe(findingFingerprint('r', 'k', 'x|s'));
  });
});

describe("the findings' digest on Node", () => {
  it('makes the same fingerprints as the browser-safe one, for any text', () => {
    const subjects = [DEVICE, 'Device-Wipe', 'Gerät-Ä-ß', '設備-42', 'emoji-😀', 'quote-"-back\\slash', '\u2028line'];
    for (const subject of subjects) {
      for (const ruleKey of ['', 'rule-a,rule-b', 'é']) {
        expect(findingFingerprint('escrow-gaps', 'missing-recovery-key', subject, ruleKey, nodeSha256Hex)).toBe(
          findingFingerprint('escrow-gaps', 'missing-recovery-key', subject, ruleKey, sha256Hex),
        );
      }
    }
  });
});
