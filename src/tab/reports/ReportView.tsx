import { countOf } from '../../core/text/words.js';
import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Body1,
  Button,
  Caption1,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  SearchBox,
  Spinner,
  Subtitle1,
  Switch,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Fragment, useCallback, useMemo, useState } from 'react';
import { countFindingsByKind, findingKind, findingsBySubject } from '../../core/findings/finding-kinds.js';
import type { FindingSeverity } from '../../core/findings/finding-kinds.js';
import { reportToCsv } from '../../core/reports/report-csv.js';
import { isPartialReport } from '../../core/reports/report-preview.js';
import type { Finding, ReportColumn, ReportPresentation, ReportResult, ReportRow } from '../../core/reports/report-model.js';
import { splitByTriage } from '../../core/triage/triage-book.js';
import type { TriageDecision } from '../../core/triage/triage-book.js';
import type { ReportApi } from '../api/report-api.js';
import { formatCell, relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { ReportTable } from '../table/ReportTable.js';
import { rowLink } from '../table/row-link.js';
import { rowSearchText, sortedOrder, visibleRows, worstFirstOrder } from '../table/row-order.js';
import type { SortState } from '../table/row-order.js';
import { ClampedText } from './ClampedText.js';
import { FindingsSection } from './FindingsSection.js';
import { RowPane } from './RowPane.js';
import { withChangedColumn } from './changed-column.js';
import type { FindingDetailsProps, FindingStory } from './FindingDetails.js';
import { FindingsSummary } from './FindingsSummary.js';
import type { FindingFilter } from './FindingsSummary.js';
import { useHistory } from './HistoryLine.js';
import { useTriage } from './use-triage.js';
import { PendingStatus } from './PendingStatus.js';
import { reportSections } from './report-sections.js';
import type { ReportSection } from './report-sections.js';
import { ReportCharts } from './ReportCharts.js';
import { isWindowedReport, useReport } from './use-report.js';
import { windowFromRows } from './window-threshold.js';
import { WindowedReport } from './WindowedReport.js';
import { PHONE } from '../app/breakpoints.js';

const useStyles = makeStyles({
  view: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0, [PHONE]: { gap: tokens.spacingVerticalS } },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  // The section's gap spaces it from the tools above; a heading's own margin would double that.
  sectionTitle: { margin: 0 },
  // On a phone the table's tools take two rows: the filter beside Export, the switch beside the count.
  search: { [PHONE]: { flexGrow: 1, flexBasis: '140px', minWidth: 0 } },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  muted: { color: tokens.colorNeutralForeground3 },
  counting: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground3 },
  // A phone's first screen is for the first rows: a smaller title there.
  title: { [PHONE]: { fontSize: tokens.fontSizeBase500, lineHeight: tokens.lineHeightBase500 } },
});

/** Lines of a report's description and notices shown before "Show all" on a wide screen (a phone shows two). */
const SUMMARY_LINES = 3;

export interface ReportViewProps {
  /** What the report says of itself (the page's catalogue). */
  presentation: ReportPresentation;
  /** Null while the application is still starting (host handshake, sign-in). */
  api: ReportApi | null;
  format: FormatContext;
  /** From how many rows the report is read in windows rather than whole (window-threshold.ts). */
  windowFrom?: number;
}

/** One report: its header and prerequisites, then whichever of the specification's states it is in. */
export function ReportView({ presentation, api, format, windowFrom = windowFromRows() }: ReportViewProps) {
  const styles = useStyles();
  const { id, title } = presentation;
  const { state, refresh } = useReport(api, id, windowFrom);

  return (
    <article className={styles.view} aria-labelledby={`report-title-${id}`}>
      <header className={styles.heading}>
        <Title2 as="h2" id={`report-title-${id}`} className={styles.title}>
          {title}
        </Title2>
        {presentation.beta ? (
          <Badge appearance="outline" color="warning">
            Beta
          </Badge>
        ) : null}
        <span className={styles.grow} />
        {state.phase === 'loaded' ? (
          <>
            <Caption1 className={styles.muted} title={new Date(state.report.generatedAt).toLocaleString(format.locale)} data-generated-at={state.report.generatedAt}>
              {state.report.state === 'load-error' ? 'Failed' : state.refreshing ? 'As of' : 'Updated'} {relativeTime(Date.parse(state.report.generatedAt), format)}
            </Caption1>
            <Button onClick={refresh} disabled={state.refreshing}>
              {state.refreshing ? 'Refreshing…' : 'Refresh'}
            </Button>
          </>
        ) : null}
      </header>
      <Body1>
        <ClampedText text={presentation.summary} lines={SUMMARY_LINES} />
      </Body1>
      {presentation.prerequisites.length > 0 ? <Prerequisites items={presentation.prerequisites} permissions={presentation.permissions} /> : null}
      {state.phase === 'loaded' && state.refreshing && state.progress ? <PendingStatus text="Refreshing" progress={state.progress} /> : null}
      <ReportBody presentation={presentation} api={api} state={state} format={format} windowFrom={windowFrom} />
    </article>
  );
}

function Prerequisites({ items, permissions }: { items: readonly string[]; permissions: readonly string[] }) {
  return (
    <Accordion collapsible>
      <AccordionItem value="prerequisites">
        <AccordionHeader size="small">Prerequisites and permissions</AccordionHeader>
        <AccordionPanel>
          <ul>
            {items.map((item) => (
              <li key={item}>{item}</li>
            ))}
            <li>Application permissions (read only): {permissions.join(', ')}</li>
          </ul>
        </AccordionPanel>
      </AccordionItem>
    </Accordion>
  );
}

function ReportBody({
  presentation,
  api,
  state,
  format,
  windowFrom,
}: {
  presentation: ReportPresentation;
  api: ReportApi | null;
  state: ReturnType<typeof useReport>['state'];
  format: FormatContext;
  windowFrom: number;
}) {
  if (!api) return <PendingStatus text={presentation.pending.starting} progress={null} />;
  if (state.phase === 'loading') return <PendingStatus text={presentation.pending.fetching} progress={state.progress} />;
  if (state.phase === 'failed') {
    return (
      <MessageBar intent="error" layout="multiline" data-state="api-error">
        <MessageBarBody>
          <MessageBarTitle>Could not load this report</MessageBarTitle>
          {state.error.message}
        </MessageBarBody>
      </MessageBar>
    );
  }
  const { report } = state;
  if (report.state === 'load-error') {
    const status = report.error?.status;
    return (
      <MessageBar intent="error" layout="multiline" data-state="load-error">
        <MessageBarBody>
          <MessageBarTitle>{status ? `Could not load this report: Microsoft Graph answered HTTP ${status}` : 'Could not load this report'}</MessageBarTitle>
          {report.error?.message}
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (report.state === 'empty') {
    return (
      <MessageBar intent="warning" layout="multiline" data-state="empty">
        <MessageBarBody>{report.notice}</MessageBarBody>
      </MessageBar>
    );
  }
  if (isWindowedReport(report, windowFrom)) return <WindowedReport presentation={presentation} report={report} api={api} format={format} />;
  return <LoadedReport presentation={presentation} report={report} api={api} format={format} />;
}

const NO_DECISIONS: ReadonlyMap<string, TriageDecision> = new Map();

/** How far down a row stands before the user sorts: by its worst open finding, rows without one last. */
const ROW_RANK: Record<FindingSeverity, number> = { high: 0, medium: 1, low: 2 };
const ROW_RANK_CLEAR = 3;

function LoadedReport({ presentation, report, api, format }: { presentation: ReportPresentation; report: ReportResult; api: ReportApi; format: FormatContext }) {
  const styles = useStyles();
  const [query, setQuery] = useState('');
  const [onlyFindings, setOnlyFindings] = useState(false);
  const [filter, setFilter] = useState<FindingFilter>(null);
  const [sorts, setSorts] = useState<Record<string, SortState>>({});
  const { triage, change } = useTriage(api, report.report, report.generatedAt);
  const history = useHistory(api, report.report, report.generatedAt);
  const decisions = triage.phase === 'loaded' ? triage.decisions : NO_DECISIONS;
  // Accepted and snoozed findings are shown apart: counted by their state, never as open.
  const split = useMemo(() => splitByTriage(report.findings, decisions, new Date()), [report, decisions]);
  const counts = useMemo(() => countFindingsByKind(split.open, report.findingKinds), [split, report]);
  const subjects = useMemo(() => {
    const matching = filter === null ? split.open : 'kind' in filter ? split.open.filter((finding) => finding.kind === filter.kind) : split[filter.triage];
    return new Set(matching.map((finding) => finding.subjectId));
  }, [split, filter]);
  const narrowed = onlyFindings || filter !== null;
  const findingsOf = useMemo(() => findingsBySubject(report.findings, report.findingKinds), [report]);
  const [details, setDetails] = useState<FindingDetailsProps['subject']>(null);
  const findingCount = useCallback((row: ReportRow) => (typeof row.id === 'string' ? (findingsOf.get(row.id)?.length ?? 0) : 0), [findingsOf]);
  // Only the report's first rows, while the rest is on its way (report-preview.ts): shown as they
  // are, with nothing that would need the rest (counts, filters, sorting, export, charts).
  const whole = isPartialReport(report) ? report.whole : null;
  const sections = useMemo(() => {
    // A "Changed" column where the load read the audit log, so the table can sort by it (changed-column.ts).
    const { columns, rows } = withChangedColumn(report.columns, report.rows, report.auditLog);
    return reportSections(presentation, columns, rows);
  }, [presentation, report]);
  const searchTexts = useMemo(() => sections.map((section) => section.rows.map((row) => rowSearchText(row, section.columns))), [sections]);
  // Before the user sorts, the worst open finding first, then the report's own order (row-order.ts).
  const openOf = useMemo(() => findingsBySubject(split.open, report.findingKinds), [split, report]);
  const worstFirst = useMemo(
    () =>
      sections.map((section) =>
        worstFirstOrder(section.rows, (row) => {
          const worst = typeof row.id === 'string' ? openOf.get(row.id)?.[0] : undefined;
          return worst ? ROW_RANK[findingKind(report.findingKinds, worst.kind).severity] : ROW_RANK_CLEAR;
        }),
      ),
    [sections, openOf, report],
  );

  const shown = useMemo(
    () =>
      sections.map((section, index) => {
        const sort = sorts[section.key ?? ''];
        const order = sort ? sortedOrder(section.rows, sort) : (worstFirst[index] ?? Int32Array.from(section.rows.keys()));
        let rows = visibleRows(section.rows, order, searchTexts[index] ?? [], query);
        if (narrowed) rows = rows.filter((row) => typeof row.id === 'string' && subjects.has(row.id));
        return { ...section, rows };
      }),
    [sections, searchTexts, worstFirst, query, narrowed, subjects, sorts],
  );
  const shownCount = shown.reduce((total, section) => total + section.rows.length, 0);

  const toggleSort = useCallback((section: ReportSection, columnKey: string) => {
    setSorts((previous) => {
      const current = previous[section.key ?? ''];
      const direction = current?.columnKey === columnKey && current.direction === 'ascending' ? 'descending' : 'ascending';
      return { ...previous, [section.key ?? '']: { columnKey, direction } };
    });
  }, []);

  // Each chart stands just above the table it summarizes (report 6's models and apps); a chart of no shown table, after the tables.
  const chartsOf = (key: string | null | undefined) => {
    const charts = presentation.charts.filter((chart) => (key === undefined ? !shown.some((section) => section.key === (chart.section ?? null)) : (chart.section ?? null) === key));
    return charts.length > 0 && !whole ? <ReportCharts charts={charts} rows={report.rows} thresholds={report.thresholds} locale={format.locale} /> : null;
  };

  const exportCsv = () => {
    const csv = reportToCsv({ columns: report.columns, rows: shown.flatMap((section) => section.rows), findings: report.findings, findingKinds: report.findingKinds });
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const anchor = document.createElement('a');
    anchor.href = url;
    anchor.download = `${report.report}-${report.generatedAt.slice(0, 10)}.csv`;
    anchor.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <>
      <FindingsSection report={report} history={history} triage={triage} format={format}>
        {whole ? (
          <Caption1 className={styles.counting} data-state="counting">
            <Spinner size="tiny" aria-hidden />
            Reading all {whole.rows.toLocaleString(format.locale)} rows to count their findings…
          </Caption1>
        ) : (
          <FindingsSummary
            counts={counts}
            triaged={{ accepted: split.accepted.length, snoozed: split.snoozed.length }}
            kinds={report.findingKinds}
            selected={filter}
            onSelect={setFilter}
            locale={format.locale}
            notChecked={report.notChecked.length > 0}
          />
        )}
      </FindingsSection>
      <div className={styles.toolbar} role="toolbar" aria-label="Table tools">
        <SearchBox
          className={styles.search}
          placeholder="Filter rows"
          aria-label="Filter rows"
          value={query}
          onChange={(_, data) => setQuery(data.value)}
          disabled={whole !== null}
        />
        {/* Beside the filter on every screen, so the keys move through the tools in the order they are drawn. */}
        <Button onClick={exportCsv} disabled={shownCount === 0 || whole !== null}>
          Export CSV
        </Button>
        <Switch label="Open findings only" checked={onlyFindings} onChange={(_, data) => setOnlyFindings(data.checked)} disabled={split.open.length === 0 || whole !== null} />
        <span className={styles.grow} />
        {/* One live region, its text changed in place, so the swap to the whole report is announced. */}
        <Caption1 aria-live="polite" data-shown-count={shownCount} data-partial={whole ? '' : undefined}>
          {whole
            ? `Showing the first ${shownCount.toLocaleString(format.locale)} of ${countOf(whole.rows, 'row', 'rows', new Intl.NumberFormat(format.locale))}; loading the rest…`
            : `Showing ${shownCount.toLocaleString(format.locale)} of ${countOf(report.rows.length, 'row', 'rows', new Intl.NumberFormat(format.locale))}`}
        </Caption1>
      </div>
      {shown.map((section) => (
        <Fragment key={section.key ?? 'rows'}>
          {chartsOf(section.key)}
          <section className={styles.section} aria-label={section.title}>
            {shown.length > 1 ? (
              <Subtitle1 as="h3" className={styles.sectionTitle}>
                {section.title}
              </Subtitle1>
            ) : null}
            {section.rows.length === 0 ? (
              <Body1 className={styles.muted}>{query || narrowed ? 'No rows match the filter.' : 'Nothing to show.'}</Body1>
            ) : (
              <ReportTable
                label={`${report.title}: ${section.title}`}
                columns={section.columns}
                rows={section.rows as ReportRow[]}
                sort={sorts[section.key ?? ''] ?? null}
                onSort={(columnKey) => toggleSort(section, columnKey)}
                partial={whole !== null}
                format={format}
                nameKey={section.nameKey}
                findingCount={findingCount}
                onOpenFindings={(row) => setDetails(rowPane(report, section, row, typeof row.id === 'string' ? (findingsOf.get(row.id) ?? []) : [], format))}
              />
            )}
          </section>
        </Fragment>
      ))}
      {chartsOf(undefined)}
      <RowPane api={api} report={report} subject={details} triage={triage} change={change} format={format} onClose={() => setDetails(null)} />
    </>
  );
}

/** What a row's pane shows, for a report read whole or in windows: its name and link, findings, recent changes, every cell, and "What applies" for a device. */
export function rowPane(
  report: Pick<ReportResult, 'auditLog'>,
  section: Pick<ReportSection, 'nameKey' | 'columns' | 'subject'>,
  row: ReportRow,
  findings: Finding[],
  format: FormatContext,
): NonNullable<FindingDetailsProps['subject']> {
  const name = String(row[section.nameKey] ?? row.id);
  return {
    name,
    link: rowLink(row, name),
    findings,
    story: storyOf(report.auditLog, row.id),
    fields: section.columns.map((column) => ({ label: column.label, text: fullText(row, column, format) })),
    // A table of devices (the report's `rowSubjects`): the pane asks what applies to the row's device by its name.
    ...(section.subject === 'device' && typeof row[section.nameKey] === 'string' && row[section.nameKey] !== '' ? { appliesQuery: String(row[section.nameKey]) } : {}),
  };
}

/** A row's object's recent changes for its pane, or why they could not be read; undefined where the report read no log. */
export function storyOf(auditLog: ReportResult['auditLog'], id: ReportRow[string] | undefined): FindingStory | undefined {
  if (!auditLog) return undefined;
  if (auditLog.state === 'unreadable') return { unavailable: auditLog.reason };
  const key = typeof id === 'string' ? Object.keys(auditLog.changes).find((candidate) => candidate.toLowerCase() === id.toLowerCase()) : undefined;
  return { changes: key ? auditLog.changes[key]! : [] };
}

/** A cell in full, for the row's pane: its text and, where the table rounds or relates it, the exact value. */
export function fullText(row: ReportRow, column: ReportColumn, format: FormatContext): string {
  if (!column.available) return 'n/a (the permission for this source is not granted)';
  const cell = formatCell(row[column.key], column, format);
  return cell.detail && cell.detail !== cell.text ? `${cell.text} (${cell.detail})` : cell.text;
}
