import type { ReportRow } from '../report-model.js';

/**
 * The policies a setting-conflict row is about, each with the value it sets, for the tab's pane to
 * show side by side (docs/contract.md, "The report's JSON", `rows`). The row holds them in one cell
 * that no column shows, as JSON text since a cell is a string, a number, a boolean or null: the
 * table, its filter and the CSV read only the columns (report-csv.ts, window-index.ts), so the table
 * is no wider and the export no messier for it.
 */
export const CONFLICT_SIDES_KEY = 'sides';

/** One policy that sets the setting. A secret's value is never read (src/core/policy-settings/setting-values.ts): `value` is then null and `secret` true. */
export interface ConflictSide {
  policyId: string;
  name: string;
  /** Its page in the Intune admin center, where known. */
  link: string | null;
  /** The value as a person reads it; null for a secret. */
  value: string | null;
  secret: boolean;
  /** One of the two policies whose pair decides the row's verdict. */
  decides: boolean;
}

export interface ConflictSides {
  /** In the row's order (by name), at most as many as the row's Policies cell lists. */
  policies: ConflictSide[];
  /** How many more policies set the setting than are listed. */
  more: number;
}

/** What the cell is made from: each setter's policy and value, as derive.ts holds them. */
interface SetterLike {
  policy: { id: string; name: string; link: string | null };
  value: { display: string; secret: boolean };
}

/** The cell's text: the policies listed, how many more, and which two decide the verdict (by policy id). */
export function conflictSidesCell(listed: readonly SetterLike[], more: number, deciding: readonly SetterLike[]): string {
  const decides = new Set(deciding.map((setter) => setter.policy.id));
  const sides: ConflictSides = {
    policies: listed.map((setter) => ({
      policyId: setter.policy.id,
      name: setter.policy.name,
      link: setter.policy.link,
      // A secret is carried as "set", never as whatever text stands for it.
      value: setter.value.secret ? null : setter.value.display,
      secret: setter.value.secret,
      decides: decides.has(setter.policy.id),
    })),
    more,
  };
  return JSON.stringify(sides);
}

/** A row's policies side by side, or null where the row has none (a row that could not be checked, a reported conflict, another report's row) or the cell is not what this module writes. */
export function conflictSidesOf(row: ReportRow): ConflictSides | null {
  const cell = row[CONFLICT_SIDES_KEY];
  if (typeof cell !== 'string') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cell);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { policies, more } = parsed as { policies?: unknown; more?: unknown };
  if (!Array.isArray(policies) || typeof more !== 'number' || !policies.every(isSide)) return null;
  // A secret's value is never shown, whatever a cell might hold.
  return { policies: policies.map((side) => (side.secret ? { ...side, value: null } : side)), more };
}

function isSide(value: unknown): value is ConflictSide {
  if (typeof value !== 'object' || value === null) return false;
  const side = value as Record<string, unknown>;
  return (
    typeof side.policyId === 'string' &&
    typeof side.name === 'string' &&
    (side.link === null || typeof side.link === 'string') &&
    (side.value === null || typeof side.value === 'string') &&
    typeof side.secret === 'boolean' &&
    typeof side.decides === 'boolean'
  );
}
