import { createHash } from 'node:crypto';
import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { EncodedReport, matchesEtag, preferredEncoding } from '../../src/server/report-encoding.js';
import { reportResult } from '../fixtures/report-result.js';

/** A report 4 result of `count` device rows, each with a finding: as long as a large tenant's. */
function largeResult(count: number): ReportResult {
  const rows = Array.from({ length: count }, (_, index) => ({ id: `device-${index}`, device: `DESKTOP-${index}`, lastSync: '2026-11-20T08:00:00.000Z' }));
  return {
    ...reportResult('2026-11-24T08:00:00.000Z'),
    rows,
    findings: rows.map((row) => ({ kind: 'missing-recovery-key', subjectId: row.id, subjectName: row.device, detail: 'No key escrowed.', fingerprint: row.id })),
  };
}

describe('a report as bytes', () => {
  it('is the JSON of the result, whole, and its ETag is a hash of exactly those bytes', async () => {
    for (const result of [largeResult(0), largeResult(1), largeResult(4_001), { ...largeResult(3), thresholds: undefined }]) {
      const encoded = await EncodedReport.of(result);
      expect(JSON.parse(encoded.json.toString('utf8'))).toEqual(JSON.parse(JSON.stringify(result)));
      expect(encoded.etag).toBe(`"${createHash('sha256').update(encoded.json).digest('base64url').slice(0, 32)}"`);
    }
  });

  it('lets other work run while a long result is serialized, rather than holding the event loop for all of it', async () => {
    let settled = false;
    const encoding = EncodedReport.of(largeResult(20_000)).then((encoded) => {
      settled = true;
      return encoded;
    });
    // Work queued after the serialization began: it runs between two of its slices.
    const ranWhileSerializing = await new Promise<boolean>((resolve) => setImmediate(() => resolve(!settled)));
    expect(ranWhileSerializing).toBe(true);
    const encoded = await encoding;
    expect((JSON.parse(encoded.json.toString('utf8')) as ReportResult).rows).toHaveLength(20_000);
    expect(brotliDecompressSync(await encoded.body('br')).equals(encoded.json)).toBe(true);
  });

  it('answers Brotli where accepted, else gzip, else none, and never a coding refused with q=0', () => {
    expect(preferredEncoding('gzip, deflate, br')).toBe('br');
    expect(preferredEncoding('br;q=0, gzip')).toBe('gzip');
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });

  it('takes an If-None-Match that names the ETag, weak or in a list, or *', () => {
    expect(matchesEtag('"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('"x", W/"abc"', '"abc"')).toBe(true);
    expect(matchesEtag('*', '"abc"')).toBe(true);
    expect(matchesEtag('"abd"', '"abc"')).toBe(false);
    expect(matchesEtag(undefined, '"abc"')).toBe(false);
  });
});
