import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportResult } from '../../src/core/reports/report-model.js';
import { IT_STAFF_ROLE, TRIAGER_ROLE } from '../../src/server/tab-access.js';
import { buildDemoTenant } from '../../src/sim/tenants/demo-tenant.js';
import { useTestSimulator } from '../support/simulated-tenant.js';
import { startTabServer } from '../support/tab-server.js';
import type { TabServer } from '../support/tab-server.js';

const harness = useTestSimulator({ tenant: buildDemoTenant() });
const REPORT = 'escrow-gaps';
/** A user name that tries to write a line of its own into the log, in red. */
const FORGING_USERNAME = 'alex@contoso.example\nreport escrow-gaps: loaded (loaded) in 1 ms\r\u001b[31mred\u2028';
let server: TabServer;
const lines: string[] = [];

beforeAll(async () => {
  server = await startTabServer(harness.sim, harness.client(), { log: (line) => lines.push(line) });
});

afterAll(async () => {
  await server?.close();
});

async function call(method: 'GET' | 'POST', path: string, bearer: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const response = await request(`${server.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: response.statusCode, json: await response.body.json() };
}

describe("the server's log", () => {
  it("writes a user name from a tab's token on one line, its line breaks and escape sequence escaped", async () => {
    const token = await harness.sim.entra.issueUserToken({
      audience: harness.sim.clientId,
      roles: [IT_STAFF_ROLE, TRIAGER_ROLE],
      username: FORGING_USERNAME,
      name: 'Alex\nWilber',
    });
    const report = (await call('GET', `/api/reports/${REPORT}`, token)).json as ReportResult;
    const from = lines.length;
    const accepted = await call('POST', `/api/reports/${REPORT}/triage`, token, { action: 'accept', fingerprint: report.findings[0]!.fingerprint, reason: 'Kiosk' });
    expect(accepted.status).toBe(200);

    const logged = lines.slice(from);
    // The name as it was sent, each control written as its escape, inside the line that logs the decision.
    const escaped = 'alex@contoso.example\\nreport escrow-gaps: loaded (loaded) in 1 ms\\r\\u001b[31mred\\u2028';
    expect(logged.some((line) => line.includes(escaped))).toBe(true);
    for (const line of lines) for (const control of ['\n', '\r', '\u001b', '\u2028']) expect(line).not.toContain(control);
  });
});
