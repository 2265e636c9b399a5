import { DEMO_PERSONAS as DEMO_PERSON_IDS, isDemoPersona } from '../../core/viewer-scope/demo-personas.js';
import type { DemoAdministrator as DemoPersona } from '../../core/viewer-scope/demo-personas.js';

export { isDemoPersona };
export type { DemoPersona };

/**
 * Whom the demo signs in as (`GET /api/demo/token?as=…`, docs/contract.md): the demo tenant's
 * Intune administrators and the cases the viewer scope tells apart (docs/finding-rules.md,
 * "Viewer scope"), in plain words. Without a choice, the demo signs a browser in as a user of its
 * own, who holds no Intune role assignment.
 */
const LABELS: Readonly<Record<DemoPersona, string>> = {
  central: 'Central IT (Intune role, whole tenant)',
  regional: 'Europe IT (Intune role, scope tag Europe)',
  'no-role': 'No Intune role',
  'intune-administrator': 'Microsoft Entra Intune Administrator',
};

/** The demo's people (src/core/viewer-scope/demo-personas.ts, the names the server takes), each in plain words. */
export const DEMO_PERSONAS: ReadonlyArray<{ id: DemoPersona; label: string }> = DEMO_PERSON_IDS.map((id) => ({ id, label: LABELS[id] }));

/** Where the choice is kept: for the browser tab's session only, so a new tab starts as the demo's own user again. */
export const DEMO_PERSONA_KEY = 'dmhealth.demoPersona';

/** The persona chosen in this session, or null (the demo's own user). Storage a browser refuses (a sandboxed frame) is no choice. */
export function chosenPersona(storage: Pick<Storage, 'getItem'> | null): DemoPersona | null {
  try {
    const value = storage?.getItem(DEMO_PERSONA_KEY);
    return isDemoPersona(value) ? value : null;
  } catch {
    return null;
  }
}

/** Keeps the choice for the session (null forgets it); a browser that refuses storage keeps it for this page only. */
export function keepPersona(storage: Pick<Storage, 'setItem' | 'removeItem'> | null, persona: DemoPersona | null): void {
  try {
    if (persona) storage?.setItem(DEMO_PERSONA_KEY, persona);
    else storage?.removeItem(DEMO_PERSONA_KEY);
  } catch {
    // Nothing to keep it in: the page still signs in as chosen until it is reloaded.
  }
}

/** The demo sign-in's path for a persona. */
export function demoTokenPath(persona: DemoPersona | null): string {
  return persona ? `/api/demo/token?as=${encodeURIComponent(persona)}` : '/api/demo/token';
}
