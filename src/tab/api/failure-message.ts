import { OUTSIDE_VIEWER_SCOPE_CODE } from '../../core/reports/report-model.js';

/** A failed answer of our API (report-api.ts) as a sentence a user can act on. */
export async function failureMessage(response: Response, method: 'GET' | 'POST'): Promise<string> {
  const error = await response
    .json()
    .then((body: unknown) => (body as { error?: { message?: string; code?: string } } | null)?.error)
    .catch(() => undefined);
  const reason = error?.message;
  // Outside the viewer's Intune scope: the server's explanation is the one to read, not the app role's.
  if (response.status === 403 && error?.code === OUTSIDE_VIEWER_SCOPE_CODE && reason) return reason;
  switch (response.status) {
    case 401:
      return `You are not signed in to Device Management Health (HTTP 401)${reason ? `: ${reason}` : ''}.`;
    case 403:
      // A change refused: the server names the role it needs (DeviceHealth.Triager).
      if (method === 'POST') return `Not allowed (HTTP 403)${reason ? `: ${reason}` : '.'}`;
      return `You are signed in but not allowed to read these reports (HTTP 403). Ask an administrator to assign you the DeviceHealth.Reader role of the Device Management Health app.`;
    default:
      return `The server answered HTTP ${response.status}${reason ? `: ${reason}` : ''}.`;
  }
}
