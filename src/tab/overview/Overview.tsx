import { Badge, Body1, Button, Caption1, Card, CardHeader, MessageBar, MessageBarBody, Text, Title2, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { ReportId, ReportPresentation } from '../../core/reports/report-model.js';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import type { ReportApi } from '../api/report-api.js';
import { HistoryLine } from '../reports/HistoryLine.js';
import { NotCheckedNotice } from '../reports/NotCheckedNotice.js';
import { PendingStatus } from '../reports/PendingStatus.js';
import { SEVERITY_BADGE } from '../reports/severity.js';
import { useReportLoad } from '../reports/use-report.js';
import type { ReportFetch } from '../reports/use-report.js';
import { relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { countOf, kindLabel } from '../../core/text/words.js';
import { AppliesSearch } from '../applies/AppliesSearch.js';
import { OutsideScopeNote } from '../reports/ScopeNotes.js';

const useStyles = makeStyles({
  view: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // Never wider than the screen: a 390 px phone less the page's padding is narrower than 300 px.
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(300px, 100%), 1fr))', gap: tokens.spacingHorizontalL, listStyleType: 'none', margin: 0, padding: 0 },
  tile: { height: '100%', minWidth: 0 },
  counts: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXXS, listStyleType: 'none', margin: 0, padding: 0 },
  count: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'baseline' },
  // Room for "100,000": a six-digit count never runs into its label, and the labels stay aligned.
  number: { fontVariantNumeric: 'tabular-nums', minWidth: '7ch', flexShrink: 0, textAlign: 'right' },
  // Long kind labels wrap within the tile.
  label: { minWidth: 0, overflowWrap: 'anywhere' },
  // Severities in one column at the tile's end, however long the label before them.
  severity: { flexShrink: 0, marginLeft: 'auto' },
  muted: { color: tokens.colorNeutralForeground3 },
  line: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  // "Worst: High" whole on one line: the count beside it wraps below it rather than squeezing it.
  badge: { flexShrink: 0, whiteSpace: 'nowrap' },
  clear: { color: tokens.colorPaletteGreenForeground1 },
  // Graph's paths and request ids are long unbroken words.
  message: { overflowWrap: 'anywhere' },
});

/** Kinds a tile lists before "and N more". */
const LISTED_KINDS = 4;

const summaryOf: ReportFetch<ReportSummary> = (api, id, options) => api.summary(id, options);

export interface OverviewProps {
  catalogue: readonly ReportPresentation[];
  /** Null while the application is still starting. */
  api: ReportApi | null;
  format: FormatContext;
  onOpen: (report: ReportId) => void;
  /** The viewer's scope tags in words ("scope tag Europe"), named beside a report their scope does not show them; null when not limited to tags. */
  scope?: string | null;
}

/**
 * The landing view: every report at once, each tile loading side by side with the server's progress,
 * then its state (findings by kind and the worst severity, the empty notice, or the load error with
 * its status) and what it could not check. A tile opens its report.
 */
export function Overview({ catalogue, api, format, onOpen, scope = null }: OverviewProps) {
  const styles = useStyles();
  return (
    <section className={styles.view} aria-labelledby="overview-title">
      <Title2 as="h2" id="overview-title">
        Overview
      </Title2>
      <Body1>What is broken in this tenant, report by report, worst first within each.</Body1>
      <AppliesSearch api={api} />
      <ul className={styles.grid} aria-label="Reports">
        {catalogue.map((presentation) => (
          <li key={presentation.id}>
            <ReportTile presentation={presentation} api={api} format={format} onOpen={onOpen} scope={scope} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ReportTile({
  presentation,
  api,
  format,
  onOpen,
  scope,
}: {
  presentation: ReportPresentation;
  api: ReportApi | null;
  format: FormatContext;
  onOpen: (report: ReportId) => void;
  scope: string | null;
}) {
  const styles = useStyles();
  const { state } = useReportLoad(api, presentation.id, summaryOf);
  const tileState = state.phase === 'loaded' ? state.report.state : state.phase === 'failed' && state.error.outsideScope ? 'outside-scope' : state.phase;
  return (
    <Card className={styles.tile} data-report-tile={presentation.id} data-state={tileState} data-worst={state.phase === 'loaded' ? (state.report.worst ?? 'none') : undefined}>
      <CardHeader
        header={
          <Text as="h3" weight="semibold">
            {presentation.title}
          </Text>
        }
        action={
          <Button appearance="primary" size="small" onClick={() => onOpen(presentation.id)} aria-label={`Open ${presentation.title}`}>
            Open
          </Button>
        }
      />
      <TileBody presentation={presentation} state={state} format={format} scope={scope} />
    </Card>
  );
}

function TileBody({
  presentation,
  state,
  format,
  scope,
}: {
  presentation: ReportPresentation;
  state: ReturnType<typeof useReportLoad<ReportSummary>>['state'];
  format: FormatContext;
  scope: string | null;
}) {
  const styles = useStyles();
  if (state.phase === 'loading') return <PendingStatus text={presentation.pending.fetching} progress={state.progress} compact />;
  if (state.phase === 'failed' && state.error.outsideScope) return <OutsideScopeNote reason={state.error.message} scope={scope} compact />;
  if (state.phase === 'failed') {
    return (
      <MessageBar intent="error" layout="multiline">
        <MessageBarBody>{state.error.message}</MessageBarBody>
      </MessageBar>
    );
  }
  const summary = state.report;
  const asOf = (
    <Caption1 className={styles.muted}>
      {summary.state === 'load-error' ? 'Failed' : 'Updated'} {relativeTime(Date.parse(summary.generatedAt), format)}
    </Caption1>
  );
  if (summary.state === 'load-error') {
    return (
      <>
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody className={styles.message}>
            <Text weight="semibold">{summary.error?.status ? `Could not load: Microsoft Graph answered HTTP ${summary.error.status}` : 'Could not load'}</Text>
            <br />
            {summary.error?.message}
          </MessageBarBody>
        </MessageBar>
        {asOf}
      </>
    );
  }
  if (summary.state === 'empty') {
    return (
      <>
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>{summary.notice}</MessageBarBody>
        </MessageBar>
        {summary.headline ? <Caption1 data-headline="">{summary.headline}</Caption1> : null}
        {asOf}
      </>
    );
  }
  const listed = summary.counts.slice(0, LISTED_KINDS);
  const more = summary.counts.length - listed.length;
  const number = new Intl.NumberFormat(format.locale);
  return (
    <>
      {summary.worst ? (
        <div className={styles.line}>
          <Badge appearance="filled" color={SEVERITY_BADGE[summary.worst].color} className={styles.badge}>
            Worst: {SEVERITY_BADGE[summary.worst].label}
          </Badge>
          <Text>
            {countOf(summary.findings, 'open finding', 'open findings', number)} in {countOf(summary.rows, 'row', 'rows', number)}
          </Text>
        </div>
      ) : (
        <Text className={summary.notChecked.length > 0 ? undefined : styles.clear} weight="semibold">
          No open findings in {number.format(summary.rows)} rows
        </Text>
      )}
      <NotCheckedNotice sources={summary.notChecked} compact />
      {listed.length > 0 ? (
        <ul className={styles.counts} aria-label="Findings by kind">
          {listed.map((count) => (
            <li key={count.kind} className={styles.count} data-finding-kind={count.kind} data-finding-count={count.count}>
              <Text className={styles.number} weight="semibold">
                {number.format(count.count)}
              </Text>
              <Text className={styles.label}>{kindLabel(count, count.count)}</Text>
              <Caption1 className={mergeClasses(styles.muted, styles.severity)}>{SEVERITY_BADGE[count.severity].label}</Caption1>
            </li>
          ))}
          {more > 0 ? <li className={styles.muted}>and {countOf(more, 'more kind', 'more kinds', number)}</li> : null}
        </ul>
      ) : null}
      {summary.triaged && summary.triaged.accepted + summary.triaged.snoozed > 0 ? (
        <Caption1 data-triaged={summary.triaged.accepted + summary.triaged.snoozed}>
          Not counted: {number.format(summary.triaged.accepted)} accepted, {number.format(summary.triaged.snoozed)} snoozed
        </Caption1>
      ) : null}
      {summary.triaged === null ? <Caption1 className={styles.muted}>Accepted and snoozed findings could not be read; every finding is counted.</Caption1> : null}
      {summary.headline ? <Caption1 data-headline="">{summary.headline}</Caption1> : null}
      <HistoryLine summary={summary} format={format} />
      {asOf}
    </>
  );
}
