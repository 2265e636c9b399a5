import type { FindingSeverity } from '../../core/findings/finding-kinds.js';

/** How the tab shows a severity, everywhere it does: the badge colour and the word. */
export const SEVERITY_BADGE: Record<FindingSeverity, { color: 'danger' | 'warning' | 'informative'; label: string }> = {
  high: { color: 'danger', label: 'High' },
  medium: { color: 'warning', label: 'Medium' },
  low: { color: 'informative', label: 'Low' },
};
