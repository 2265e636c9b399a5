import { describe, expect, it } from 'vitest';
import { failureOf, isOutsideScope } from '../../src/tab/api/failure-message.js';
import { OUTSIDE_VIEWER_SCOPE_CODE } from '../../src/core/reports/report-model.js';

const answer = (status: number, error: Record<string, unknown>) => new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });

describe("the tab's words for a refused read", () => {
  it("shows the viewer scope's own explanation, not the app role's, for a read outside the viewer's Intune scope", async () => {
    const explanation = 'You hold no Intune role assignment, so this app shows you no tenant data.';
    expect((await failureOf(answer(403, { status: 403, code: OUTSIDE_VIEWER_SCOPE_CODE, message: explanation }), 'GET')).message).toBe(explanation);
  });

  it('keeps the app role’s advice for any other 403 of a read', async () => {
    expect((await failureOf(answer(403, { status: 403, message: 'The signed-in user does not hold the DeviceHealth.Reader app role.' }), 'GET')).message).toMatch(
      /DeviceHealth\.Reader role/,
    );
  });

  it('keeps the code of a refusal by the viewer scope, so the tab shows it as a note rather than an error', async () => {
    const explanation = 'Connector & Integration Health covers the whole tenant: its rows carry no scope tags.';
    const failure = await failureOf(answer(403, { status: 403, code: OUTSIDE_VIEWER_SCOPE_CODE, message: explanation }), 'GET');
    expect(failure).toEqual({ message: explanation, code: OUTSIDE_VIEWER_SCOPE_CODE });
    expect(isOutsideScope(403, failure.code)).toBe(true);
    // The app role's 403 and any other failure are errors still.
    const role = await failureOf(answer(403, { status: 403, message: 'The signed-in user does not hold the DeviceHealth.Reader app role.' }), 'GET');
    expect(role.code).toBeNull();
    expect(isOutsideScope(403, role.code)).toBe(false);
    expect(isOutsideScope(502, OUTSIDE_VIEWER_SCOPE_CODE)).toBe(false);
  });
});
