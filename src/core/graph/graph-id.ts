const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether an id from Graph may go into a path: only a GUID does (the allow-list's `{id}`), whatever a record holds. */
export function isGraphId(id: string): boolean {
  return GUID.test(id);
}
