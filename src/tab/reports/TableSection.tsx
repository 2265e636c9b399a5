import { Body1, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect } from 'react';
import type { ReactNode } from 'react';
import type { Finding, ReportId, ReportRow } from '../../core/reports/report-model.js';
import type { ReportApi } from '../api/report-api.js';
import type { FormatContext } from '../table/cell-format.js';
import { ReportTable } from '../table/ReportTable.js';
import type { SortState } from '../table/sort-state.js';
import type { ReportSection } from './report-sections.js';
import { useReportWindow } from './use-report-window.js';
import type { ReportWindowView } from './use-report-window.js';
import type { WindowFilters } from './browser-rows.js';
import { VISUALLY_HIDDEN } from './visually-hidden.js';
import { LoadErrorBar } from './LoadErrorBar.js';

const useStyles = makeStyles({
  // The section's gap spaces it from the tools above; a heading's own margin would double that.
  sectionTitle: { margin: 0 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
  visuallyHidden: VISUALLY_HIDDEN,
});

/**
 * One table's rows as its source gives them: the browser's windows over a report it holds whole
 * (`rows`, every row that passes, in order), or the server's, a page at a time as they come into
 * view (use-report-window.ts). Either way the same order, filters and findings (report-window.ts).
 */
export type TableRows = ReportWindowView & { rows?: ReportRow[] };

/** The rows of a table the browser holds whole, as a table source: all there, nothing to fetch. */
export function wholeTableRows(rows: ReportRow[], findingsOf: (row: ReportRow) => Finding[], generatedAt: string): TableRows {
  return { rows, total: rows.length, rowAt: (index) => rows[index], findingsOf, want: () => undefined, pending: [], loadError: null, error: null, generatedAt };
}

export interface TableSectionProps {
  report: { title: string; whole?: { rows: number } };
  section: ReportSection;
  /** The report has several tables: each is titled. */
  several: boolean;
  /** A filter or a narrowing is in force: an empty table says that nothing matches, not that there is nothing. */
  narrowed: boolean;
  sort: SortState | null;
  onSort: (columnKey: string) => void;
  /** Only the table's first rows are shown (a preview), so it cannot be sorted. */
  partial: boolean;
  format: FormatContext;
  onOpen: (row: ReportRow, findings: Finding[]) => void;
  /** What stands above the table (its charts). */
  before?: ReactNode;
}

/** One table of a report: its title, and its rows or why there are none. */
export function TableSection({ view, ...props }: TableSectionProps & { view: TableRows }) {
  const styles = useStyles();
  const { report, section, several, narrowed, format } = props;
  const findingCount = useCallback((row: ReportRow) => view.findingsOf(row).length, [view]);
  const fetching = view.pending[0];
  const windowed = view.rows === undefined;
  return (
    <>
      {props.before}
      <section className={styles.section} aria-label={section.title}>
        {several ? (
          <Subtitle1 as="h3" className={styles.sectionTitle}>
            {section.title}
          </Subtitle1>
        ) : null}
        {/* Rows on their way from the server are announced politely; the table keeps their places meanwhile. */}
        {windowed ? (
          <span className={styles.visuallyHidden} aria-live="polite" data-fetching={fetching ? '' : undefined}>
            {fetching ? `Loading rows ${fetching.from.toLocaleString(format.locale)} to ${fetching.to.toLocaleString(format.locale)}…` : ''}
          </span>
        ) : null}
        {view.loadError ? (
          <LoadErrorBar state="load-error" status={view.loadError.status} message={view.loadError.message} />
        ) : view.error ? (
          <LoadErrorBar state="api-error" message={view.error.message} />
        ) : view.total === 0 ? (
          <Body1 className={styles.muted}>{narrowed ? 'No rows match the filter.' : 'Nothing to show.'}</Body1>
        ) : (
          <ReportTable
            label={`${report.title}: ${section.title}`}
            columns={section.columns}
            rows={view.rows ?? []}
            // Until the first window's count arrives, a screenful of placeholders: never an empty table.
            {...(windowed ? { window: { count: view.total ?? Math.min(20, report.whole?.rows ?? 20), rowAt: view.rowAt, onRange: view.want } } : {})}
            partial={props.partial || view.total === null}
            sort={props.sort}
            onSort={props.onSort}
            format={format}
            nameKey={section.nameKey}
            findingCount={findingCount}
            onOpenFindings={(row) => props.onOpen(row, view.findingsOf(row))}
          />
        )}
      </section>
    </>
  );
}

/** A table of a report too large to hold whole: its rows read from the server a page at a time, with its count. */
export function ServerTableSection({
  api,
  id,
  filters,
  freshness,
  onTotal,
  ...props
}: TableSectionProps & { api: ReportApi; id: ReportId; filters: WindowFilters; freshness: string; onTotal: (key: string, total: number | null) => void }) {
  const view = useReportWindow(api, id, props.section.key, filters, freshness);
  useEffect(() => onTotal(props.section.key ?? '', view.total), [onTotal, props.section.key, view.total]);
  return <TableSection view={view} {...props} />;
}
