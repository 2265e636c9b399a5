import { Caption1, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import type { ReportId } from '../../core/reports/report-model.js';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import type { ReportApi } from '../api/report-api.js';
import { relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { TrendLine } from './TrendLine.js';

const useStyles = makeStyles({
  line: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

/**
 * The report's summary beside its table, for its history (the trend and the latest change): read
 * again whenever a newer result is shown. A summary that cannot be read leaves the line out; the
 * table is what matters.
 */
export function useHistory(api: ReportApi | null, id: ReportId, generation: string): Pick<ReportSummary, 'changes' | 'trend'> | null {
  const [summary, setSummary] = useState<Pick<ReportSummary, 'changes' | 'trend'> | null>(null);
  useEffect(() => {
    if (!api) return;
    const controller = new AbortController();
    api.summary(id, { signal: controller.signal }).then(
      ({ value }) => setSummary({ changes: value.changes, trend: value.trend }),
      () => undefined,
    );
    return () => controller.abort();
  }, [api, id, generation]);
  return summary;
}

/** "N new, M resolved since the load …" and the trend line, when there has been more than one load. */
export function HistoryLine({ summary, format }: { summary: Pick<ReportSummary, 'changes' | 'trend'>; format: FormatContext }) {
  const styles = useStyles();
  const number = new Intl.NumberFormat(format.locale);
  if (!summary.changes && summary.trend.length < 2) return null;
  return (
    <div className={styles.line}>
      {summary.changes ? (
        <Caption1 data-changes title={new Date(summary.changes.since).toLocaleString(format.locale)}>
          {number.format(summary.changes.fresh)} new, {number.format(summary.changes.resolved)} resolved since the load {relativeTime(Date.parse(summary.changes.since), format)}
        </Caption1>
      ) : null}
      <TrendLine points={summary.trend} format={format} />
    </div>
  );
}
