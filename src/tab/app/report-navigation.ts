import { CATALOGUE_ELEMENT_ID } from '../../core/reports/report-model.js';
import type { ReportId, ReportPresentation } from '../../core/reports/report-model.js';

/**
 * The reports this server offers, as its page carries them (the server writes them in; see
 * docs/contract.md, "The report catalogue"); null when the page came without them.
 */
export function readCatalogue(page: Document): ReportPresentation[] | null {
  const text = page.getElementById(CATALOGUE_ELEMENT_ID)?.textContent;
  if (!text) return null;
  try {
    const catalogue: unknown = JSON.parse(text);
    return Array.isArray(catalogue) && catalogue.length > 0 ? (catalogue as ReportPresentation[]) : null;
  } catch {
    return null;
  }
}

/** The landing view: every report at once. */
export const OVERVIEW = 'overview';
/** What changed in the tenant (docs/contract.md, "The change feed"). */
export const CHANGES = 'changes';

/** What the tab shows: the overview, the changes or one report. */
export type TabView = typeof OVERVIEW | typeof CHANGES | ReportId;

/**
 * The view a URL hash names: none (or `#/overview`) is the overview, `#/changes` the changes, `#/escrow-gaps` (or
 * `#escrow-gaps`) the report if the catalogue has it; null for anything else.
 */
export function viewFromHash(hash: string, catalogue: readonly ReportPresentation[]): TabView | null {
  let id: string;
  try {
    id = decodeURIComponent(hash.replace(/^#\/?/, ''));
  } catch {
    return null; // a malformed escape
  }
  if (id === '' || id === OVERVIEW) return OVERVIEW;
  if (id === CHANGES) return CHANGES;
  return catalogue.some((report) => report.id === id) ? id : null;
}

export function hashFor(view: TabView): string {
  return `#/${view}`;
}
