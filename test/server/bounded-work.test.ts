import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { IT_STAFF_ROLE } from '../../src/server/tab-access.js';
import { loadReport } from '../../src/core/reports/registry.js';
import { WINDOW_Q_MAX_CHARACTERS, WINDOW_Q_MAX_WORDS } from '../../src/core/reports/window/report-window.js';
import { CSV_ROWS_PER_SLICE } from '../../src/server/report-rows.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { HeldLoads, enlargedRows, useApiServer } from '../support/api-server.js';
import { useTestSimulator } from '../support/simulated-tenant.js';

/**
 * Bounded work per request (docs/contract.md, "The server's endpoints"): the limits on a window's
 * filter, the per-person limits on windows and exports, the exports written at once, and the
 * server answering `/healthz` while the costliest window and exports it takes are under way.
 */

const harness = useTestSimulator({ tenant: buildDemoTenant() });
/** The minute the per-person limits count by: held by the test. */
let limitNow = 0;
/** Access checks answered, whatever their outcome: a request past this point has been counted by its route. */
let accessChecks = 0;
const held = new HeldLoads();
/** Rows in the large copy of report 4 (about 30 MB of CSV, more than a socket's buffers hold): many slices of an export, many steps of a filter. */
const LARGE_ROWS = 100_000;
const WINDOWS_PER_MINUTE = 4;
const EXPORTS_PER_MINUTE = 3;
const EXPORTS_AT_ONCE = 2;
const QUESTIONS_PER_MINUTE = 3;

const api = useApiServer(harness, {
  name: 'bounded work',
  load: (graph) =>
    held.around(async (id, onProgress) => {
      const result = await loadReport(id, graph, { onProgress });
      return id === 'escrow-gaps' && result.state === 'loaded'
        ? enlargedRows(result, LARGE_ROWS, (row, index) => ({ ...row, id: `${String(row.id)}-${index}`, device: `${String(row.device)}-${index}` }))
        : result;
    }),
  aroundAccess: (checkAccess) => async (authorization) => {
    const access = await checkAccess(authorization);
    accessChecks += 1;
    changed();
    return access;
  },
  server: {
    limitClock: () => limitNow,
    windowRequestsPerMinute: WINDOWS_PER_MINUTE,
    exportsPerMinute: EXPORTS_PER_MINUTE,
    exportsAtOnce: EXPORTS_AT_ONCE,
    questionsPerMinute: QUESTIONS_PER_MINUTE,
  },
});
const get = (path: string, token?: string) => api.get(path, token);

/** A person of their own: each token the simulator issues names another user. */
const person = () => harness.sim.entra.issueUserToken({ audience: harness.sim.clientId, roles: [IT_STAFF_ROLE] });

const rowsOf = (q: string) => `/api/reports/escrow-gaps/rows?q=${encodeURIComponent(q)}`;

/**
 * A client of its own: says `begun <status>` once the answer's head came and stops reading until a
 * line comes on its input, then reads as fast as it can and says `ended <lines>` once the body came.
 */
const CSV_READER = `
import { get } from 'node:http';
const [url, token] = process.argv.slice(-2);
get(url, { headers: { authorization: 'Bearer ' + token } }, (response) => {
  response.pause();
  process.stdout.write('begun ' + response.statusCode + '\\n');
  process.stdin.once('data', () => response.resume());
  let lines = 1;
  response.on('data', (chunk) => { for (const byte of chunk) if (byte === 10) lines += 1; });
  response.on('end', () => { process.stdout.write('ended ' + lines + '\\n'); process.stdin.destroy(); });
});
`;

/** What a test waits for, looked at again each time something it counts changes: no polling, no clock. */
const waiting: Array<{ holds: () => boolean; resolve: () => void }> = [];
function changed(): void {
  for (const waiter of [...waiting]) {
    if (!waiter.holds()) continue;
    waiting.splice(waiting.indexOf(waiter), 1);
    waiter.resolve();
  }
}
function when(holds: () => boolean): Promise<void> {
  return holds() ? Promise.resolve() : new Promise((resolve) => waiting.push({ holds, resolve }));
}

describe('the filter of a window', () => {
  it(`takes ${WINDOW_Q_MAX_CHARACTERS} characters and ${WINDOW_Q_MAX_WORDS} words, and refuses more with a 400 naming q`, async () => {
    const token = await person();
    const words = Array.from({ length: WINDOW_Q_MAX_WORDS }, (_, at) => `w${at}`).join(' ');
    expect((await get(rowsOf(words), token)).status).toBe(200);
    const longest = 'a'.repeat(WINDOW_Q_MAX_CHARACTERS);
    expect((await get(rowsOf(longest), token)).status).toBe(200);

    const tooManyWords = await get(rowsOf(`${words} one-more`), token);
    expect(tooManyWords.status).toBe(400);
    expect(tooManyWords.json()).toEqual({
      error: { status: 400, parameter: 'q', message: `q: the filter has ${WINDOW_Q_MAX_WORDS + 1} words; it takes at most ${WINDOW_Q_MAX_WORDS}.` },
    });
    const tooLong = await get(rowsOf(`${longest}b`), token);
    expect(tooLong.status).toBe(400);
    expect(tooLong.json()).toEqual({
      error: { status: 400, parameter: 'q', message: `q: the filter is ${WINDOW_Q_MAX_CHARACTERS + 1} characters long; it takes at most ${WINDOW_Q_MAX_CHARACTERS}.` },
    });
  });
});

describe('per-person limits', () => {
  it('answers a person a few windows a minute here, then 429 with Retry-After until the minute is over; another person meanwhile is answered', async () => {
    limitNow = 1_000_000;
    const token = await person();
    for (let at = 0; at < WINDOWS_PER_MINUTE; at += 1) expect((await get('/api/reports/escrow-gaps/rows?limit=1', token)).status).toBe(200);
    limitNow += 15_000;
    const refused = await get('/api/reports/escrow-gaps/rows?limit=1', token);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(`More than ${WINDOWS_PER_MINUTE} windows of rows in a minute; try again in 45 s.`);
    expect((await get('/api/reports/escrow-gaps/rows?limit=1', await person())).status).toBe(200);
    limitNow += 45_000;
    expect((await get('/api/reports/escrow-gaps/rows?limit=1', token)).status).toBe(200);
  });

  it('lets a person ask "what applies" a few times a minute here, each new question being Graph reads of its own, then 429 with Retry-After', async () => {
    limitNow = 3_000_000;
    const token = await person();
    for (const q of ['NO-SUCH-DEVICE-1', 'NO-SUCH-DEVICE-2', 'NO-SUCH-DEVICE-3']) expect((await get(`/api/applies?q=${q}`, token)).status).toBe(200);
    limitNow += 20_000;
    const refused = await get('/api/applies?q=NO-SUCH-DEVICE-4', token);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('40');
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(`More than ${QUESTIONS_PER_MINUTE} questions in a minute; try again in 40 s.`);
    expect((await get('/api/applies?q=NO-SUCH-DEVICE-4', await person())).status).toBe(200);
    limitNow += 40_000;
    expect((await get('/api/applies?q=NO-SUCH-DEVICE-4', token)).status).toBe(200);
  });

  it('lets a person start a few exports a minute here, then 429 with Retry-After until the minute is over', async () => {
    limitNow = 2_000_000;
    const token = await person();
    for (let at = 0; at < EXPORTS_PER_MINUTE; at += 1) expect((await get('/api/reports/connector-health.csv', token)).status).toBe(200);
    const refused = await get('/api/reports/connector-health.csv', token);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect((await get('/api/reports/connector-health.csv', await person())).status).toBe(200);
    limitNow += 60_000;
    expect((await get('/api/reports/connector-health.csv', token)).status).toBe(200);
  });
});

describe('exports at once', () => {
  it('writes at most two exports at once, an export waiting for its load included; a third is 429 with Retry-After, and is taken once one ends', async () => {
    const loading = held.hold('security-posture');
    const [first, second, third] = await Promise.all([person(), person(), person()]);
    const checked = accessChecks;
    const exports = [get('/api/reports/security-posture.csv', first), get('/api/reports/security-posture.csv', second)];
    // Once both are past the access check, both are counted: the route counts in the same turn.
    await when(() => accessChecks >= checked + 2);
    await nextTurn();
    const refused = await get('/api/reports/escrow-gaps.csv', third);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.json<{ error: { message: string } }>().error.message).toBe(`${EXPORTS_AT_ONCE} exports are being written now; try again in 10 s.`);
    loading.open();
    expect((await Promise.all(exports)).map((answer) => answer.status)).toEqual([200, 200]);
    expect((await get('/api/reports/connector-health.csv', third)).status).toBe(200);
  });
});

describe('/healthz while the costliest work runs', () => {
  it('answers while two exports of a large report and the costliest filter a window takes are all still under way', async () => {
    const [reader, exporter, another] = await Promise.all([person(), person(), person()]);
    // The load and its windows built ahead, as a viewer's first window waits for them.
    expect((await get('/api/reports/escrow-gaps/rows?limit=1', reader)).status).toBe(200);

    // Each export read by a process of its own, as a browser reads it: once it reads, it takes each write as it comes, so
    // the server's writes often complete at once, and the server must still give other requests their turn between slices.
    const underWay = { exports: 0, window: false };
    let exportsRead = 0;
    const readers: Array<ReturnType<typeof spawn>> = [];
    const exportOf = async (token: string) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', CSV_READER, `${api.base}/api/reports/escrow-gaps.csv`, token], { stdio: ['pipe', 'pipe', 'inherit'] });
      readers.push(child);
      let said = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        said += chunk.toString('utf8');
        if (said.startsWith('begun') && !said.includes('counted')) {
          said += ' counted';
          underWay.exports += 1;
          changed();
        }
        if (said.includes('ended')) exportsRead += 1;
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      underWay.exports -= 1;
      const [, status, lines] = /^begun (\d+)[^]*?ended (\d+)/.exec(said) ?? [];
      return { code, status: Number(status), lines: Number(lines) };
    };
    const exports = [exportOf(exporter), exportOf(another)];
    // Both have their answer's head and hold the rest of it (far more than the sockets' buffers): both are under way.
    await when(() => underWay.exports === 2);
    // Sixteen words, each a character nearly every row holds but the last, which no row holds: every row read to its end for each.
    const costliest = [...'0123456789-:etao'.slice(0, WINDOW_Q_MAX_WORDS - 1)].concat('qzxqzxqzx').join(' ');
    underWay.window = true;
    const window = get(rowsOf(costliest), reader).finally(() => (underWay.window = false));
    for (const child of readers) child.stdin!.write('go\n');
    const health = await get('/healthz');
    const whenAnswered = { ...underWay };
    // And again and again, one after another, until a reader has the whole of its export: each a few turns of the loop.
    let answeredWhileWriting = 1;
    while (exportsRead === 0 && answeredWhileWriting < 100_000) {
      expect((await get('/healthz')).status).toBe(200);
      answeredWhileWriting += 1;
    }

    expect(health.status).toBe(200);
    // Each export has many slices to write (a turn of the event loop each), and the filter many steps: /healthz came between them.
    expect(LARGE_ROWS / CSV_ROWS_PER_SLICE).toBeGreaterThanOrEqual(100);
    expect(whenAnswered).toEqual({ exports: 2, window: true });
    // Each export is 200 slices, a turn of the loop each, and each /healthz a few turns: about 90 of them came before a
    // reader had its export whole. Written in runs of slices (each write completing at once, its 'drain' on the same
    // tick), the exports left about 10.
    expect(answeredWhileWriting).toBeGreaterThanOrEqual(40);
    expect((await window).status).toBe(200);
    expect((await Promise.all(exports)).map(({ code, status, lines }) => [code, status, lines])).toEqual([
      [0, 200, LARGE_ROWS + 2],
      [0, 200, LARGE_ROWS + 2],
    ]);
  });
});
