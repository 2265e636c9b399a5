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

/** The report a URL hash names: `#/escrow-gaps` (or `#escrow-gaps`), if the catalogue has it, else null. */
export function reportFromHash(hash: string, catalogue: readonly ReportPresentation[]): ReportId | null {
  let id: string;
  try {
    id = decodeURIComponent(hash.replace(/^#\/?/, ''));
  } catch {
    return null; // a malformed escape
  }
  return catalogue.some((report) => report.id === id) ? id : null;
}

export function hashFor(report: ReportId): string {
  return `#/${report}`;
}
