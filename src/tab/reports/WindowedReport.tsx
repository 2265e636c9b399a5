import { Body1, Button, Caption1, MessageBar, MessageBarBody, MessageBarTitle, SearchBox, Spinner, Subtitle1, Switch, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ReportPreview } from '../../core/reports/report-preview.js';
import type { ReportPresentation, ReportRow } from '../../core/reports/report-model.js';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import { countOf } from '../../core/text/words.js';
import { ApiError } from '../api/report-api.js';
import type { ReportApi } from '../api/report-api.js';
import type { FormatContext } from '../table/cell-format.js';
import { ReportTable } from '../table/ReportTable.js';
import type { SortState } from '../table/row-order.js';
import { withChangedColumn } from './changed-column.js';
import { FindingsSection } from './FindingsSection.js';
import { RowPane } from './RowPane.js';
import type { FindingDetailsProps } from './FindingDetails.js';
import { FindingsSummary } from './FindingsSummary.js';
import type { FindingFilter } from './FindingsSummary.js';
import { useHistory } from './HistoryLine.js';
import { reportSections } from './report-sections.js';
import type { ReportSection } from './report-sections.js';
import { rowPane } from './ReportView.js';
import { useReportWindow } from './use-report-window.js';
import type { ReportWindowView, WindowFilters } from './use-report-window.js';
import { useTriage } from './use-triage.js';
import { VISUALLY_HIDDEN } from './visually-hidden.js';
import { PHONE } from '../app/breakpoints.js';

const useStyles = makeStyles({
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  sectionTitle: { margin: 0 },
  search: { [PHONE]: { flexGrow: 1, flexBasis: '140px', minWidth: 0 } },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
  counting: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground3 },
  visuallyHidden: VISUALLY_HIDDEN,
});

/** Typing in the filter asks the server once the typing pauses, not once a key. */
const FILTER_DEBOUNCE_MS = 250;

/** A value that follows `value` once it has stopped changing for `delay` ms. */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/**
 * A report too large to download whole (window-threshold.ts), opened from its preview: each table
 * reads the rows in view from the server (`GET /api/reports/:id/rows`), which sorts, filters and
 * narrows them; the counts come from the report's summary; the CSV is the server's, streamed. The
 * notices, the findings' counts and toggles, the tools and the row's pane are the whole report's.
 */
export function WindowedReport({ presentation, report, api, format }: { presentation: ReportPresentation; report: ReportPreview; api: ReportApi; format: FormatContext }) {
  const styles = useStyles();
  const [query, setQuery] = useState('');
  const q = useDebounced(query, FILTER_DEBOUNCE_MS);
  const [onlyFindings, setOnlyFindings] = useState(false);
  const [filter, setFilter] = useState<FindingFilter>(null);
  const [sorts, setSorts] = useState<Record<string, SortState>>({});
  const { triage, change } = useTriage(api, report.report, report.generatedAt);
  const history = useHistory(api, report.report, report.generatedAt);
  // A triage change changes which findings are open: the counts and the windows are asked again.
  const freshness = `${report.generatedAt}|${triage.phase === 'loaded' ? triage.view.audit.length : triage.phase}`;
  const summary = useSummary(api, report, freshness);
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [details, setDetails] = useState<FindingDetailsProps['subject']>(null);
  const sections = useMemo(() => {
    const { columns } = withChangedColumn(report.columns, [], report.auditLog);
    return reportSections(presentation, columns, []);
  }, [presentation, report]);
  const [totals, setTotals] = useState<Record<string, number | null>>({});
  const onTotal = useCallback((key: string, total: number | null) => setTotals((previous) => (previous[key] === total ? previous : { ...previous, [key]: total })), []);
  const shownCount = sections.reduce((sum, section) => sum + (totals[section.key ?? ''] ?? 0), 0);
  // The Accepted and Snoozed toggles narrow to the rows with a finding in that state, as the whole report's do.
  const decided = filter !== null && 'triage' in filter ? filter.triage : null;
  const filters = (section: ReportSection): WindowFilters => ({
    sort: sorts[section.key ?? ''] ?? null,
    q,
    finding: filter !== null && 'kind' in filter ? filter.kind : null,
    open: decided === null && (onlyFindings || (filter !== null && 'kind' in filter)),
    triage: decided,
  });

  const toggleSort = useCallback((section: ReportSection, columnKey: string) => {
    setSorts((previous) => {
      const current = previous[section.key ?? ''];
      const direction = current?.columnKey === columnKey && current.direction === 'ascending' ? 'descending' : 'ascending';
      return { ...previous, [section.key ?? '']: { columnKey, direction } };
    });
  }, []);

  // The server's CSV of the whole report, written as it is read (docs/contract.md, `GET /api/reports/:id.csv`).
  const exportCsv = () => {
    setExporting(true);
    setExportError(null);
    api.csv(report.report).then(
      (blob) => {
        const url = URL.createObjectURL(blob);
        const anchor = document.createElement('a');
        anchor.href = url;
        anchor.download = `${report.report}-${report.generatedAt.slice(0, 10)}.csv`;
        anchor.click();
        setTimeout(() => URL.revokeObjectURL(url), 0);
        setExporting(false);
      },
      (error: unknown) => {
        setExporting(false);
        setExportError(error instanceof ApiError ? error.message : 'The export could not be made.');
      },
    );
  };

  return (
    <>
      <FindingsSection report={report} history={history} triage={triage} format={format}>
        {summary ? (
          <FindingsSummary
            counts={summary.counts}
            triaged={summary.triaged ?? { accepted: 0, snoozed: 0 }}
            kinds={report.findingKinds}
            selected={filter}
            onSelect={setFilter}
            locale={format.locale}
            notChecked={report.notChecked.length > 0}
          />
        ) : (
          <Caption1 className={styles.counting} data-state="counting">
            <Spinner size="tiny" aria-hidden />
            Reading all {report.whole.rows.toLocaleString(format.locale)} rows to count their findings…
          </Caption1>
        )}
      </FindingsSection>
      <div className={styles.toolbar} role="toolbar" aria-label="Table tools">
        <SearchBox className={styles.search} placeholder="Filter rows" aria-label="Filter rows" value={query} onChange={(_, data) => setQuery(data.value)} />
        <Button onClick={exportCsv} disabled={exporting}>
          Export CSV
        </Button>
        <Switch label="Open findings only" checked={onlyFindings} onChange={(_, data) => setOnlyFindings(data.checked)} disabled={summary !== null && summary.findings === 0} />
        <span className={styles.grow} />
        <Caption1 aria-live="polite" data-shown-count={shownCount} data-windowed="">
          {`Showing ${shownCount.toLocaleString(format.locale)} of ${countOf(report.whole.rows, 'row', 'rows', new Intl.NumberFormat(format.locale))}`}
        </Caption1>
      </div>
      {exportError ? (
        <MessageBar intent="error" layout="multiline" data-state="export-error">
          <MessageBarBody>{exportError}</MessageBarBody>
        </MessageBar>
      ) : null}
      {sections.map((section) => (
        <WindowedSection
          key={section.key ?? 'rows'}
          api={api}
          report={report}
          section={section}
          several={sections.length > 1}
          filters={filters(section)}
          freshness={freshness}
          narrowed={q.trim() !== '' || onlyFindings || filter !== null}
          format={format}
          onSort={(columnKey) => toggleSort(section, columnKey)}
          onTotal={onTotal}
          onOpen={setDetails}
        />
      ))}
      <RowPane api={api} report={report} subject={details} triage={triage} change={change} format={format} onClose={() => setDetails(null)} />
    </>
  );
}

/** The report's summary (counts of open findings by kind, accepted and snoozed), asked again when the load or the decisions change. */
function useSummary(api: ReportApi, report: ReportPreview, freshness: string): ReportSummary | null {
  const [summary, setSummary] = useState<{ freshness: string; value: ReportSummary } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    api.summary(report.report, { signal: controller.signal }).then(
      ({ value }) => {
        if (!controller.signal.aborted) setSummary({ freshness, value });
      },
      () => undefined, // the counts stay "being read"; the table still works
    );
    return () => controller.abort();
  }, [api, report.report, freshness]);
  // The counts of an older load or older decisions are shown until the new ones arrive, never none.
  return summary?.value ?? null;
}

function WindowedSection({
  api,
  report,
  section,
  several,
  filters,
  freshness,
  narrowed,
  format,
  onSort,
  onTotal,
  onOpen,
}: {
  api: ReportApi;
  report: ReportPreview;
  section: ReportSection;
  several: boolean;
  filters: WindowFilters;
  freshness: string;
  narrowed: boolean;
  format: FormatContext;
  onSort: (columnKey: string) => void;
  onTotal: (key: string, total: number | null) => void;
  onOpen: (subject: FindingDetailsProps['subject']) => void;
}) {
  const styles = useStyles();
  const view: ReportWindowView = useReportWindow(api, report.report, section.key, filters, freshness);
  useEffect(() => onTotal(section.key ?? '', view.total), [onTotal, section.key, view.total]);
  const findingCount = useCallback((row: ReportRow) => view.findingsOf(row).length, [view]);
  const fetching = view.pending[0];

  return (
    <section className={styles.section} aria-label={section.title}>
      {several ? (
        <Subtitle1 as="h3" className={styles.sectionTitle}>
          {section.title}
        </Subtitle1>
      ) : null}
      {/* Rows on their way are announced politely; the table keeps their places meanwhile. */}
      <span className={styles.visuallyHidden} aria-live="polite" data-fetching={fetching ? '' : undefined}>
        {fetching ? `Loading rows ${fetching.from.toLocaleString(format.locale)} to ${fetching.to.toLocaleString(format.locale)}…` : ''}
      </span>
      {view.loadError ? (
        <MessageBar intent="error" layout="multiline" data-state="load-error">
          <MessageBarBody>
            <MessageBarTitle>
              {view.loadError.status ? `Could not load this report: Microsoft Graph answered HTTP ${view.loadError.status}` : 'Could not load this report'}
            </MessageBarTitle>
            {view.loadError.message}
          </MessageBarBody>
        </MessageBar>
      ) : view.error ? (
        <MessageBar intent="error" layout="multiline" data-state="api-error">
          <MessageBarBody>
            <MessageBarTitle>Could not load this report</MessageBarTitle>
            {view.error.message}
          </MessageBarBody>
        </MessageBar>
      ) : view.total === 0 ? (
        <Body1 className={styles.muted}>{narrowed ? 'No rows match the filter.' : 'Nothing to show.'}</Body1>
      ) : (
        <ReportTable
          label={`${report.title}: ${section.title}`}
          columns={section.columns}
          rows={[]}
          // Until the first window's count arrives, a screenful of placeholders: never an empty table.
          window={{ count: view.total ?? Math.min(20, report.whole.rows), rowAt: view.rowAt, onRange: view.want }}
          partial={view.total === null}
          sort={filters.sort}
          onSort={onSort}
          format={format}
          nameKey={section.nameKey}
          findingCount={findingCount}
          onOpenFindings={(row) => onOpen(rowPane(report, section, row, view.findingsOf(row), format))}
        />
      )}
    </section>
  );
}
