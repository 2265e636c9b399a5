import { OUTSIDE_VIEWER_SCOPE_CODE } from '../../core/reports/report-model.js';

/** A failed answer of our API: a sentence a user can act on, and the error's `code` when the server gave one. */
export interface Failure {
  message: string;
  code: string | null;
}

/** A refusal by the viewer scope (docs/contract.md, "With `VIEWER_SCOPE=intune-rbac`"): what the viewer's Intune role does not show them, not a failure. */
export function isOutsideScope(status: number | null, code: string | null): boolean {
  return status === 403 && code === OUTSIDE_VIEWER_SCOPE_CODE;
}

/** A failed answer of our API, its sentence and its code (`outsideViewerScope` for a refusal by the viewer scope, docs/contract.md). */
export async function failureOf(response: Response, method: 'GET' | 'POST'): Promise<Failure> {
  const error = await response
    .json()
    .then((body: unknown) => (body as { error?: { message?: string; code?: string } } | null)?.error)
    .catch(() => undefined);
  const reason = error?.message;
  const code = typeof error?.code === 'string' ? error.code : null;
  // Outside the viewer's Intune scope: the server's explanation is the one to read, not the app role's.
  if (isOutsideScope(response.status, code) && reason) return { message: reason, code };
  return { message: wordsFor(response.status, reason, method), code };
}

function wordsFor(status: number, reason: string | undefined, method: 'GET' | 'POST'): string {
  switch (status) {
    case 401:
      return `You are not signed in to Device Management Health (HTTP 401)${reason ? `: ${reason}` : ''}.`;
    case 403:
      // A change refused: the server names the role it needs (DeviceHealth.Triager).
      if (method === 'POST') return `Not allowed (HTTP 403)${reason ? `: ${reason}` : '.'}`;
      return `You are signed in but not allowed to read these reports (HTTP 403). Ask an administrator to assign you the DeviceHealth.Reader role of the Device Management Health app.`;
    default:
      return `The server answered HTTP ${status}${reason ? `: ${reason}` : ''}.`;
  }
}
