import { hash } from 'node:crypto';
import type { Sha256Hex } from '../core/findings/fingerprint.js';

/**
 * Node's SHA-256, for the findings' fingerprints where the code runs on Node: the same digest as the
 * core's own, faster (fingerprint.ts). The one-shot `crypto.hash` (Node 20.12 and later; a string is
 * hashed as UTF-8) makes no Hash object per text, about twice as fast as `createHash` over a large
 * report's findings (docs/performance.md, "Report 4 while its pages arrive").
 */
export const nodeSha256Hex: Sha256Hex = (text) => hash('sha256', text, 'hex');
