import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Request, Response } from 'restify';
import { csvEncoder } from '../core/reports/report-csv.js';
import { ReportWindows, parseWindowQuery } from '../core/reports/window/report-window.js';
import type { ReportResult } from '../core/reports/report-model.js';
import type { TriageDecision } from '../core/triage/triage-book.js';
import { matchesEtag } from './report-encoding.js';

/**
 * Rows written per turn of the event loop by a streamed CSV: small enough that other requests are
 * answered between slices. Report 4's rows cost about 50 µs each to encode on a quiet machine, so
 * 2,000 held the loop for about 0.1 s; 500, a quarter of that.
 */
export const CSV_ROWS_PER_SLICE = 500;

/** A number per result, for the window's ETag: a later load is a later number, whatever its `generatedAt`. */
const serials = new WeakMap<ReportResult, number>();
let lastSerial = 0;
function serialOf(result: ReportResult): number {
  let serial = serials.get(result);
  if (serial === undefined) {
    serial = ++lastSerial;
    serials.set(result, serial);
  }
  return serial;
}

/**
 * `GET /api/reports/:id/rows` once the report is opened (docs/contract.md, "The server's endpoints"):
 * one window of one table, with the load's `generatedAt` and state, so a viewer can tell a window of a
 * newer load from one of an older. A load error is answered as the report's JSON has it, never as an
 * empty window; a parameter the window cannot take is a 400 naming it. The window is the same for
 * the same load, query and decisions in force, so its ETag names those and a 304 costs no query. The
 * window is made a step at a time (`ReportWindows.windowSteps`), yielding to the event loop between
 * steps.
 */
export async function answerWindow(
  req: Request,
  res: Response,
  result: ReportResult,
  windows: ReportWindows,
  decisions: ReadonlyMap<string, TriageDecision> | null,
): Promise<void> {
  const head = { report: result.report, state: result.state, generatedAt: result.generatedAt };
  if (result.state === 'load-error') {
    res.send(200, { ...head, error: result.error, notice: result.notice });
    return;
  }
  const parsed = parseWindowQuery((req.query as Record<string, unknown> | undefined) ?? {}, windows.shape(result));
  if (!parsed.ok) {
    res.send(400, { error: { status: 400, message: parsed.error.message, parameter: parsed.error.parameter } });
    return;
  }
  const { query } = parsed;
  // Only the decisions about this result's findings change its windows.
  const etag = `W/"${serialOf(result)}-${createHash('sha256')
    .update(JSON.stringify([query, windows.decisionsBearing(result, decisions)]))
    .digest('base64url')
    .slice(0, 22)}"`;
  res.header('etag', etag);
  if (matchesEtag(req.header('if-none-match'), etag.slice(2))) {
    res.writeHead(304);
    res.end();
    return;
  }
  // A step per turn of the event loop: a filter over a large table is many steps, and other viewers (and /healthz) are answered between them.
  const steps = windows.windowSteps(result, query, decisions);
  let step = steps.next();
  while (!step.done) {
    await nextTurn();
    step = steps.next();
  }
  const window = step.value;
  // The rows' findings ride along, so the tab shows a row's findings and its pane from the window alone.
  res.send(200, {
    ...head,
    notice: result.notice,
    table: query.table,
    total: window.total,
    offset: window.offset,
    rows: window.rows,
    findings: windows.findingsOf(result, window.rows),
  });
}

const prepared = new WeakMap<ReportWindows, WeakMap<ReportResult, Promise<void>>>();

/**
 * A result's windows built ahead (`ReportWindows.prepare`), a step per turn of the event loop, once
 * per result however many ask: the rows route waits for it, so no request runs a cold sort of a
 * large table while every other request waits behind it. A 375,000-row report 4 takes a few seconds
 * of such steps, once per load; a small report, a turn or two.
 */
export function windowsPrepared(windows: ReportWindows, result: ReportResult): Promise<void> {
  let ofWindows = prepared.get(windows);
  if (!ofWindows) prepared.set(windows, (ofWindows = new WeakMap()));
  let ready = ofWindows.get(result);
  if (!ready) {
    const steps = windows.prepare(result);
    ready = (async () => {
      while (!steps.next().done) await nextTurn();
    })();
    ofWindows.set(result, ready);
    // A build that failed (a bug) is not kept: the next request tries again.
    ready.catch(() => ofWindows.delete(result));
  }
  return ready;
}

/**
 * A report's CSV written as it is made (`csvEncoder`, the same bytes as `reportToCsv`): a slice of
 * rows per turn of the event loop, waiting for the connection to drain when its buffer is full, so a
 * 500,000-row export holds a slice in memory rather than the whole text, and other viewers are
 * answered meanwhile. Stops when the client goes. `windows` are the routes' own, so the index of
 * each row's findings is built once per load; left out, this export builds its own.
 */
export async function writeCsv(res: ServerResponse, report: ReportResult, windows: ReportWindows = new ReportWindows()): Promise<void> {
  let gone = false;
  const onClose = () => (gone = true);
  res.once('close', onClose);
  try {
    // Each row's findings, from the windows' index: built a step per turn (and once per load when the
    // windows are the routes'), where grouping 150,000 findings in one go held the loop for a second.
    const indexing = windows.indexed(report);
    while (!indexing.next().done && !gone) await nextTurn();
    if (gone) return;
    const encoder = csvEncoder(report, (subjectId) => windows.findingsOfSubject(report, subjectId));
    res.write(`${encoder.header}\r\n`);
    for (let start = 0; start < report.rows.length && !gone; start += CSV_ROWS_PER_SLICE) {
      let slice = '';
      for (const row of report.rows.slice(start, start + CSV_ROWS_PER_SLICE)) slice += `${encoder.line(row)}\r\n`;
      if (!res.write(slice)) {
        const waited = new AbortController();
        await Promise.race([once(res, 'drain', { signal: waited.signal }), once(res, 'close', { signal: waited.signal })]).finally(() => waited.abort());
      }
      // A turn of the event loop after every slice, drained or not: when a fast client takes each
      // write at once, 'drain' comes on the same tick, and waiting for it alone wrote the whole
      // export in one go, answering no other request until it ended.
      await nextTurn();
    }
    if (!gone) res.end();
  } finally {
    res.off('close', onClose);
  }
}
