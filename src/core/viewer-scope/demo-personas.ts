/**
 * The demo's people, as the demo sign-in names them (`/api/demo/token?as=central`): the central and
 * the regional administrator (their Intune role assignments, demo.ts), a user who holds no Intune
 * role assignment and no Entra role (`no-role`: sees nothing), and one who holds only the Entra
 * Intune Administrator role and no Intune role assignment (`intune-administrator`: the whole tenant,
 * by Microsoft's table of Entra roles with Intune access, entra-roles.ts). Apart from demo.ts, with
 * nothing to import, so that the tab's sign-in list takes the same names.
 */
export const DEMO_PERSONAS = ['central', 'regional', 'no-role', 'intune-administrator'] as const;
export type DemoAdministrator = (typeof DEMO_PERSONAS)[number];

/** Whether a value names a demo person (`as=` of the demo sign-in). */
export function isDemoPersona(value: unknown): value is DemoAdministrator {
  return typeof value === 'string' && (DEMO_PERSONAS as readonly string[]).includes(value);
}
