import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { ReportResult } from '../core/reports/report-model.js';
import { previewReport } from '../core/reports/report-preview.js';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type ContentEncoding = 'br' | 'gzip';

/** Rows or findings serialized in one turn of the event loop: a few milliseconds of work. */
const ITEMS_PER_SLICE = 2_000;

/**
 * A report as bytes, made once however many viewers read it: the JSON, its ETag, and each
 * compression a client accepts, made on first use in zlib's thread pool (off the event loop).
 * Brotli at quality 5 and gzip at level 6 shrink a 100,000-row report about tenfold in well under a
 * second; the highest qualities cost many seconds for a few per cent more.
 */
export class EncodedReport {
  private readonly compressed = new Map<ContentEncoding, Promise<Buffer>>();

  private constructor(
    readonly json: Buffer,
    /** A strong validator of these bytes (RFC 9110, section 8.8.3). */
    readonly etag: string,
  ) {}

  /**
   * Serializes a result a slice of rows or findings at a time, yielding to the event loop between
   * slices: in one `JSON.stringify`, report 4 of a 100,000-device tenant (about 48 MB) held every
   * other request for a third of a second or more. The JSON is the same object; its long lists
   * come last.
   */
  static async of(result: ReportResult): Promise<EncodedReport> {
    const parts: Buffer[] = [];
    const hash = createHash('sha256');
    const write = (text: string) => {
      const bytes = Buffer.from(text, 'utf8');
      parts.push(bytes);
      hash.update(bytes);
    };
    const writeList = async (items: readonly unknown[]) => {
      write('[');
      for (let start = 0; start < items.length; start += ITEMS_PER_SLICE) {
        if (start > 0) {
          await nextTurn();
          write(',');
        }
        write(JSON.stringify(items.slice(start, start + ITEMS_PER_SLICE)).slice(1, -1));
      }
      write(']');
    };
    const { rows, findings, ...rest } = result;
    const head = JSON.stringify(rest);
    // A result always has fields besides its lists (`report`, `state`, …): the head ends with one.
    write(`${head.slice(0, -1)},"rows":`);
    await writeList(rows);
    write(',"findings":');
    await writeList(findings);
    write('}');
    return new EncodedReport(Buffer.concat(parts), `"${hash.digest('base64url').slice(0, 32)}"`);
  }

  body(encoding: ContentEncoding | null): Promise<Buffer> {
    if (encoding === null) return Promise.resolve(this.json);
    let made = this.compressed.get(encoding);
    if (!made) {
      made =
        encoding === 'br'
          ? brotliAsync(this.json, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: this.json.length } })
          : gzipAsync(this.json, { level: 6 });
      this.compressed.set(encoding, made);
    }
    return made;
  }
}

/**
 * The encoding to answer with, from `Accept-Encoding` (RFC 9110, section 12.5.3): Brotli where
 * accepted, else gzip, else none. A coding with `q=0` is refused, not accepted.
 */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding | null {
  const accepted = new Set<string>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

/** Whether an `If-None-Match` names this ETag (or is `*`): the client has these bytes already. */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag;
  });
}

/**
 * Each result a viewer reads, and its preview (report-preview.ts), as bytes: serialized once, on
 * first request (viewers asking meanwhile wait for the same), and kept as long as the result is.
 */
export class EncodedReports {
  private readonly encodings = new WeakMap<ReportResult, Promise<EncodedReport>>();
  private readonly previewEncodings = new WeakMap<ReportResult, Promise<EncodedReport>>();
  private serialized = 0;

  /** The whole result as bytes. */
  encoded(result: ReportResult): Promise<EncodedReport> {
    return this.encodeOnce(this.encodings, result, () => result);
  }

  /** A result's preview (report-preview.ts) as bytes: made once, as the whole result's bytes are. */
  encodedPreview(result: ReportResult): Promise<EncodedReport> {
    return this.encodeOnce(this.previewEncodings, result, () => previewReport(result));
  }

  private encodeOnce(made: WeakMap<ReportResult, Promise<EncodedReport>>, result: ReportResult, representation: () => ReportResult): Promise<EncodedReport> {
    let encoded = made.get(result);
    if (!encoded) {
      encoded = EncodedReport.of(representation());
      this.serialized += 1;
      made.set(result, encoded);
      // A serialization that failed (a bug) is not kept: the next viewer tries again.
      encoded.catch(() => made.delete(result));
    }
    return encoded;
  }

  /** How many representations were turned into bytes: one of each per load, however many viewers read it. */
  get serializations(): number {
    return this.serialized;
  }
}
