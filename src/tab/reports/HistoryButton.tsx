import { Button, Popover, PopoverSurface, PopoverTrigger } from '@fluentui/react-components';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import type { FormatContext } from '../table/cell-format.js';
import { HistoryLine } from './HistoryLine.js';

/**
 * The report's history (new and resolved since the previous load, and the trend) one tap away, on a
 * button beside the findings' heading: drawn inline above the table it would push the first rows off
 * a phone's first screen. Nothing before a second load, as the line itself shows nothing then.
 */
export function HistoryButton({ summary, format }: { summary: Pick<ReportSummary, 'changes' | 'trend'>; format: FormatContext }) {
  if (!summary.changes && summary.trend.length < 2) return null;
  return (
    // Inline: the line stays in the findings section's part of the page, where a screen reader finds it.
    <Popover inline withArrow positioning="below-end">
      <PopoverTrigger disableButtonEnhancement>
        {/* One word, so the heading's line holds it beside the triage log on a phone; the figures are inside. */}
        <Button appearance="subtle" data-history>
          History
        </Button>
      </PopoverTrigger>
      <PopoverSurface aria-label="History of this report's findings">
        <HistoryLine summary={summary} format={format} />
      </PopoverSurface>
    </Popover>
  );
}
