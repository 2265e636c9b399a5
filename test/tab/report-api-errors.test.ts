import { describe, expect, it } from 'vitest';
import { failureMessage } from '../../src/tab/api/failure-message.js';
import { OUTSIDE_VIEWER_SCOPE_CODE } from '../../src/core/reports/report-model.js';

const answer = (status: number, error: Record<string, unknown>) => new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } });

describe("the tab's words for a refused read", () => {
  it("shows the viewer scope's own explanation, not the app role's, for a read outside the viewer's Intune scope", async () => {
    const explanation = 'You hold no Intune role assignment, so this app shows you no tenant data.';
    expect(await failureMessage(answer(403, { status: 403, code: OUTSIDE_VIEWER_SCOPE_CODE, message: explanation }), 'GET')).toBe(explanation);
  });

  it('keeps the app role’s advice for any other 403 of a read', async () => {
    expect(await failureMessage(answer(403, { status: 403, message: 'The signed-in user does not hold the DeviceHealth.Reader app role.' }), 'GET')).toMatch(
      /DeviceHealth\.Reader role/,
    );
  });
});
