import { MessageBar, MessageBarBody, Subtitle1, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import type { ReportResult } from '../../core/reports/report-model.js';
import type { ReportSummary } from '../../core/reports/report-summary.js';
import type { FormatContext } from '../table/cell-format.js';
import type { ReportApi } from '../api/report-api.js';
import { ClampedText } from './ClampedText.js';
import { HistoryButton } from './HistoryButton.js';
import { NotCheckedNotice } from './NotCheckedNotice.js';
import { TriageLog } from './TriageLog.js';
import type { TriageLoad } from './use-triage.js';

const useStyles = makeStyles({
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  grow: { flexGrow: 1 },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
});

/** The report's notice, kept to two lines (the whole of it a click away). */
const NOTICE_LINES = 2;

export interface FindingsSectionProps {
  report: Pick<ReportResult, 'report' | 'notice' | 'notChecked' | 'findingKinds'>;
  history: Pick<ReportSummary, 'changes' | 'trend'> | null;
  triage: TriageLoad;
  /** What the triage log reads its pages through. */
  api: ReportApi;
  format: FormatContext;
  /** The counts and toggles of the findings, as the report is read (whole or in windows). */
  children: ReactNode;
}

/**
 * The head of a report's findings, one component for a report read whole and one read in windows,
 * so the specification's states read word for word in both: the report's notice, the findings'
 * history and triage log, the checks that did not run, and a failed read of the triage decisions.
 */
export function FindingsSection({ report, history, triage, api, format, children }: FindingsSectionProps) {
  const styles = useStyles();
  return (
    <>
      {report.notice ? (
        <MessageBar intent="info" layout="multiline" data-state="notice">
          <MessageBarBody>
            <ClampedText text={report.notice} lines={NOTICE_LINES} />
          </MessageBarBody>
        </MessageBar>
      ) : null}
      <section className={styles.section} aria-label="Findings">
        <div className={styles.toolbar}>
          <Subtitle1 as="h3">Findings</Subtitle1>
          <span className={styles.grow} />
          {history ? <HistoryButton summary={history} format={format} /> : null}
          {triage.phase === 'loaded' ? <TriageLog api={api} report={report.report} count={triage.view.auditCount} kinds={report.findingKinds} format={format} /> : null}
        </div>
        <NotCheckedNotice sources={report.notChecked} />
        {triage.phase === 'failed' ? (
          <MessageBar intent="warning" layout="multiline" data-state="triage-error">
            <MessageBarBody>Accepted and snoozed findings could not be read, so every finding is counted as open. {triage.error.message}</MessageBarBody>
          </MessageBar>
        ) : null}
        {children}
      </section>
    </>
  );
}
