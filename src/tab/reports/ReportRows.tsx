import { Button, Caption1, MessageBar, MessageBarBody, SearchBox, Spinner, Switch, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { countFindingsByKind } from '../../core/findings/finding-kinds.js';
import { reportToCsv } from '../../core/reports/report-csv.js';
import type { ReportPresentation, ReportResult, ReportRow } from '../../core/reports/report-model.js';
import { isPartialReport } from '../../core/reports/report-preview.js';
import { WINDOW_Q_MAX_CHARACTERS } from '../../core/reports/window/window-query.js';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import { countOf } from '../../core/text/words.js';
import { decisionsInForce, splitByTriage } from '../../core/triage/triage-book.js';
import type { TriageDecision } from '../../core/triage/triage-book.js';
import { PHONE } from '../app/breakpoints.js';
import { ApiError } from '../api/report-api.js';
import type { ReportApi } from '../api/report-api.js';
import type { FormatContext } from '../table/cell-format.js';
import type { SortState } from '../table/sort-state.js';
import { browserFindingsOf, browserRows } from './browser-rows.js';
import { withChangedColumn } from './changed-column.js';
import type { FindingDetailsProps } from './FindingDetails.js';
import { FindingsSection } from './FindingsSection.js';
import { FindingsSummary } from './FindingsSummary.js';
import type { FindingFilter } from './FindingsSummary.js';
import { useHistory } from './HistoryLine.js';
import { ReportCharts } from './ReportCharts.js';
import { reportSections } from './report-sections.js';
import type { ReportSection } from './report-sections.js';
import { rowPane } from './row-pane.js';
import { RowPane } from './RowPane.js';
import { ServerTableSection, TableSection, wholeTableRows } from './TableSection.js';
import type { WindowFilters } from './browser-rows.js';
import { useTriage } from './use-triage.js';

const useStyles = makeStyles({
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  // On a phone the table's tools take two rows: the filter beside Export, the switch beside the count.
  search: { [PHONE]: { flexGrow: 1, flexBasis: '140px', minWidth: 0 } },
  counting: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground3 },
});

/** Typing in the filter asks the server once the typing pauses, not once a key; the browser's own windows follow every key. */
const FILTER_DEBOUNCE_MS = 250;

const NO_DECISIONS: ReadonlyMap<string, TriageDecision> = new Map();

export interface ReportRowsProps {
  presentation: ReportPresentation;
  /** The report as read: whole, its preview while the rest is on its way, or the preview of one read in windows. */
  report: ReportResult;
  api: ReportApi;
  format: FormatContext;
  /**
   * Where its rows come from: false, the report is in the browser and windowed there; true, it is
   * too large to download whole (window-threshold.ts), and each table reads the rows in view from the
   * server (`GET /api/reports/:id/rows`), its counts from the summary and its CSV streamed. The
   * order, filters and narrowing are the same code either way (report-window.ts).
   */
  fromServer: boolean;
}

/**
 * A loaded report: the findings' counts and toggles, the table tools, each table, the row's pane.
 * One view whatever the report's size; only the source of its rows differs (`fromServer`).
 */
export function ReportRows({ presentation, report, api, format, fromServer }: ReportRowsProps) {
  const styles = useStyles();
  const [query, setQuery] = useState('');
  const settled = useDebounced(query, FILTER_DEBOUNCE_MS);
  const q = fromServer ? settled : query;
  const [onlyFindings, setOnlyFindings] = useState(false);
  const [filter, setFilter] = useState<FindingFilter>(null);
  const [sorts, setSorts] = useState<Record<string, SortState>>({});
  const { triage, change } = useTriage(api, report.report, report.generatedAt);
  const history = useHistory(api, report.report, report.generatedAt);
  const decisions = triage.phase === 'loaded' ? triage.decisions : NO_DECISIONS;
  // Accepted and snoozed findings are shown apart: counted by their state, never as open.
  const split = useMemo(() => splitByTriage(report.findings, decisions, new Date()), [report, decisions]);
  const inForce = useMemo(() => decisionsInForce({ decisions: [...decisions.values()] }, new Date()), [decisions]);
  // A triage change changes which findings are open: the server's counts and windows are asked again.
  const freshness = `${report.generatedAt}|${triage.phase === 'loaded' ? (triage.view.auditLatest ?? 0) : triage.phase}`;
  const summary = useSummary(fromServer ? api : null, report, freshness);
  // Only the report's first rows, while the rest is on its way (report-preview.ts): shown as they
  // are, with nothing that would need the rest (counts, filters, sorting, export, charts).
  const whole = isPartialReport(report) ? report.whole : null;
  const partial = !fromServer && whole !== null;
  const [exportError, setExportError] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [details, setDetails] = useState<FindingDetailsProps['subject']>(null);
  // A "Changed" column where the load read the audit log, so the table can sort by it (changed-column.ts).
  const sections = useMemo(() => reportSections(presentation, withChangedColumn(report.columns, [], report.auditLog).columns, []), [presentation, report]);
  const narrowed = onlyFindings || filter !== null;
  // The Accepted and Snoozed toggles narrow to the rows with a finding in that state.
  const decided = filter !== null && 'triage' in filter ? filter.triage : null;
  const filtersOf = (section: ReportSection): WindowFilters => ({
    sort: sorts[section.key ?? ''] ?? null,
    q,
    finding: filter !== null && 'kind' in filter ? filter.kind : null,
    open: decided === null && (onlyFindings || (filter !== null && 'kind' in filter)),
    triage: decided,
  });
  // The browser's rows of each table, when it holds the report: every row that passes, in order.
  const wholeRows = useMemo(
    () => (fromServer ? null : sections.map((section) => browserRows(report, section.key, filtersOf(section), inForce))),
    // filtersOf reads exactly these.
    [fromServer, sections, report, inForce, sorts, q, filter, onlyFindings],
  );
  const findingsOf = useCallback((row: ReportRow) => browserFindingsOf(report, row), [report]);
  const [totals, setTotals] = useState<Record<string, number | null>>({});
  const onTotal = useCallback((key: string, total: number | null) => setTotals((previous) => (previous[key] === total ? previous : { ...previous, [key]: total })), []);
  const shownCount = wholeRows ? wholeRows.reduce((sum, rows) => sum + rows.length, 0) : sections.reduce((sum, section) => sum + (totals[section.key ?? ''] ?? 0), 0);

  const toggleSort = useCallback((section: ReportSection, columnKey: string) => {
    setSorts((previous) => {
      const current = previous[section.key ?? ''];
      const direction = current?.columnKey === columnKey && current.direction === 'ascending' ? 'descending' : 'ascending';
      return { ...previous, [section.key ?? '']: { columnKey, direction } };
    });
  }, []);

  // Each chart stands just above the table it summarizes (report 6's models and apps); a chart of no table, after the tables. Only of a report held whole.
  const chartsOf = (key: string | null | undefined) => {
    if (fromServer || whole) return null;
    const charts = presentation.charts.filter((chart) =>
      key === undefined ? !sections.some((section) => section.key === (chart.section ?? null)) : (chart.section ?? null) === key,
    );
    return charts.length > 0 ? <ReportCharts charts={charts} rows={report.rows} thresholds={report.thresholds} locale={format.locale} /> : null;
  };

  const download = (blob: Blob) => {
    const url = URL.createObjectURL(blob);
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = `${report.report}-${report.generatedAt.slice(0, 10)}.csv`;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  // The rows shown, as the browser holds them; or the server's CSV of the whole report, written as it is read (docs/contract.md, `GET /api/reports/:id.csv`).
  const exportCsv = () => {
    if (wholeRows) {
      const csv = reportToCsv({ columns: report.columns, rows: wholeRows.flat(), findings: report.findings, findingKinds: report.findingKinds });
      download(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      return;
    }
    setExporting(true);
    setExportError(null);
    api.csv(report.report).then(
      (blob) => {
        download(blob);
        setExporting(false);
      },
      (error: unknown) => {
        setExporting(false);
        setExportError(error instanceof ApiError ? error.message : 'The export could not be made.');
      },
    );
  };

  const counts = useMemo(() => countFindingsByKind(split.open, report.findingKinds), [split, report]);
  const findingCounts = fromServer
    ? summary && { counts: summary.counts, triaged: summary.triaged ?? { accepted: 0, snoozed: 0 } }
    : whole
      ? null
      : { counts, triaged: { accepted: split.accepted.length, snoozed: split.snoozed.length } };
  const wholeCount = whole ? whole.rows : report.rows.length;
  const openPane = (section: ReportSection) => (row: ReportRow, findings: ReportResult['findings']) => setDetails(rowPane(report, section, row, findings, format));
  const sectionProps = (section: ReportSection) => ({
    report,
    section,
    several: sections.length > 1,
    narrowed: (fromServer ? q.trim() !== '' : query !== '') || narrowed,
    sort: sorts[section.key ?? ''] ?? null,
    onSort: (columnKey: string) => toggleSort(section, columnKey),
    partial,
    format,
    onOpen: openPane(section),
    before: chartsOf(section.key),
  });

  return (
    <>
      <FindingsSection report={report} history={history} triage={triage} api={api} format={format}>
        {findingCounts ? (
          <FindingsSummary
            counts={findingCounts.counts}
            triaged={findingCounts.triaged}
            kinds={report.findingKinds}
            selected={filter}
            onSelect={setFilter}
            locale={format.locale}
            notChecked={report.notChecked.length > 0}
          />
        ) : (
          <Caption1 className={styles.counting} data-state="counting">
            <Spinner size="tiny" aria-hidden />
            Reading all {wholeCount.toLocaleString(format.locale)} rows to count their findings…
          </Caption1>
        )}
      </FindingsSection>
      <div className={styles.toolbar} role="toolbar" aria-label="Table tools">
        <SearchBox
          className={styles.search}
          placeholder="Filter rows"
          aria-label="Filter rows"
          maxLength={WINDOW_Q_MAX_CHARACTERS}
          value={query}
          onChange={(_, data) => setQuery(data.value)}
          disabled={partial}
        />
        {/* Beside the filter on every screen, so the keys move through the tools in the order they are drawn. */}
        <Button onClick={exportCsv} disabled={fromServer ? exporting : shownCount === 0 || partial}>
          Export CSV
        </Button>
        <Switch
          label="Open findings only"
          checked={onlyFindings}
          onChange={(_, data) => setOnlyFindings(data.checked)}
          disabled={fromServer ? summary !== null && summary.findings === 0 : split.open.length === 0 || partial}
        />
        <span className={styles.grow} />
        {/* One live region, its text changed in place, so the swap to the whole report is announced. */}
        <Caption1 aria-live="polite" data-shown-count={shownCount} data-partial={partial ? '' : undefined} data-windowed={fromServer ? '' : undefined}>
          {partial
            ? `Showing the first ${shownCount.toLocaleString(format.locale)} of ${countOf(wholeCount, 'row', 'rows', new Intl.NumberFormat(format.locale))}; loading the rest…`
            : `Showing ${shownCount.toLocaleString(format.locale)} of ${countOf(wholeCount, 'row', 'rows', new Intl.NumberFormat(format.locale))}`}
        </Caption1>
      </div>
      {exportError ? (
        <MessageBar intent="error" layout="multiline" data-state="export-error">
          <MessageBarBody>{exportError}</MessageBarBody>
        </MessageBar>
      ) : null}
      {sections.map((section, index) =>
        wholeRows ? (
          <TableSection key={section.key ?? 'rows'} view={wholeTableRows(wholeRows[index] ?? [], findingsOf, report.generatedAt)} {...sectionProps(section)} />
        ) : (
          <ServerTableSection
            key={section.key ?? 'rows'}
            api={api}
            id={report.report}
            filters={filtersOf(section)}
            freshness={freshness}
            onTotal={onTotal}
            {...sectionProps(section)}
          />
        ),
      )}
      {chartsOf(undefined)}
      <RowPane api={api} report={report} subject={details} triage={triage} change={change} format={format} onClose={() => setDetails(null)} />
    </>
  );
}

/** A value that follows `value` once it has stopped changing for `delay` ms. */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

/** The report's summary from the server (counts of open findings by kind, accepted and snoozed), asked again when the load or the decisions change; none asked without `api`. */
function useSummary(api: ReportApi | null, report: ReportResult, freshness: string): ReportSummary | null {
  const [summary, setSummary] = useState<{ freshness: string; value: ReportSummary } | null>(null);
  useEffect(() => {
    if (!api) return;
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
