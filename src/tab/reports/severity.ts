import { SEVERITY_LABEL } from '../../core/findings/finding-kinds.js';
import type { FindingSeverity } from '../../core/findings/finding-kinds.js';

/** How the tab shows a severity, everywhere it does: the badge colour and the word. */
export const SEVERITY_BADGE: Record<FindingSeverity, { color: 'danger' | 'warning' | 'informative'; label: string }> = {
  high: { color: 'danger', label: SEVERITY_LABEL.high },
  medium: { color: 'warning', label: SEVERITY_LABEL.medium },
  low: { color: 'informative', label: SEVERITY_LABEL.low },
};
