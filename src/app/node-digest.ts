import { createHash } from 'node:crypto';
import type { Sha256Hex } from '../core/findings/fingerprint.js';

/** Node's SHA-256, for the findings' fingerprints where the code runs on Node: the same digest as the core's own, faster (fingerprint.ts). */
export const nodeSha256Hex: Sha256Hex = (text) => createHash('sha256').update(text, 'utf8').digest('hex');
