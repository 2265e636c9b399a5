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
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { ReportPresentation } from '../../core/reports/report-model.js';
import type { ReportApi } from '../api/report-api.js';
import { relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { ClampedText } from './ClampedText.js';
import { PendingStatus } from './PendingStatus.js';
import { LoadErrorBar } from './LoadErrorBar.js';
import { OutsideScopeNote } from './ScopeNotes.js';
import { ReportRows } from './ReportRows.js';
import { isWindowedReport, useReport } from './use-report.js';
import { windowFromRows } from './window-threshold.js';
import { PHONE } from '../app/breakpoints.js';

const useStyles = makeStyles({
  view: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0, [PHONE]: { gap: tokens.spacingVerticalS } },
  heading: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  muted: { color: tokens.colorNeutralForeground3 },
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
  /** The viewer's scope tags in words ("scope tag Europe"), named when their scope does not show them this report; null when not limited to tags. */
  scope?: string | null;
}

/** One report: its header and prerequisites, then whichever of the specification's states it is in. */
export function ReportView({ presentation, api, format, windowFrom = windowFromRows(), scope = null }: ReportViewProps) {
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
      <ReportBody presentation={presentation} api={api} state={state} format={format} windowFrom={windowFrom} scope={scope} />
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
  scope,
}: {
  presentation: ReportPresentation;
  api: ReportApi | null;
  state: ReturnType<typeof useReport>['state'];
  format: FormatContext;
  windowFrom: number;
  scope: string | null;
}) {
  if (!api) return <PendingStatus text={presentation.pending.starting} progress={null} />;
  if (state.phase === 'loading') return <PendingStatus text={presentation.pending.fetching} progress={state.progress} />;
  if (state.phase === 'failed' && state.error.outsideScope) return <OutsideScopeNote reason={state.error.message} scope={scope} />;
  if (state.phase === 'failed') return <LoadErrorBar state="api-error" message={state.error.message} />;
  const { report } = state;
  if (report.state === 'load-error') return <LoadErrorBar state="load-error" status={report.error?.status} message={report.error?.message} />;
  // The report's one line of its own (report 7: predicted beside reported): under its empty notice, or
  // after its rows, so the first rows stay on the first screen; cut to two lines (one on a phone) like the description.
  const headline = report.headline ? (
    <Body1 as="p" data-headline="">
      <ClampedText text={report.headline} lines={2} />
    </Body1>
  ) : null;
  if (report.state === 'empty') {
    return (
      <>
        <MessageBar intent="warning" layout="multiline" data-state="empty">
          <MessageBarBody>{report.notice}</MessageBarBody>
        </MessageBar>
        {headline}
      </>
    );
  }
  return (
    <>
      <ReportRows presentation={presentation} report={report} api={api} format={format} fromServer={isWindowedReport(report, windowFrom)} />
      {headline}
    </>
  );
}
