import { useState } from 'react';
import type { ReportResult } from '../../core/reports/report-model.js';
import type { TriageRequest } from '../../core/triage/triage-book.js';
import { ApiError } from '../api/report-api.js';
import type { ReportApi } from '../api/report-api.js';
import { AppliesDialog } from '../applies/AppliesDialog.js';
import type { FormatContext } from '../table/cell-format.js';
import { FindingDetails } from './FindingDetails.js';
import type { FindingDetailsProps } from './FindingDetails.js';
import type { TriageLoad } from './use-triage.js';

export interface RowPaneProps {
  api: ReportApi;
  report: Pick<ReportResult, 'findingKinds'>;
  /** The row whose pane is open, or null. */
  subject: FindingDetailsProps['subject'];
  triage: TriageLoad;
  change: (request: TriageRequest) => Promise<ApiError | null>;
  format: FormatContext;
  onClose: () => void;
}

/**
 * A row's pane and the "What applies" it opens, one component for a report read whole and one read
 * in windows: the pane's triage as the decisions were read (or why they were not), and asking what
 * applies closes the pane for the answer's dialog.
 */
export function RowPane({ api, report, subject, triage, change, format, onClose }: RowPaneProps) {
  const [applies, setApplies] = useState<string | null>(null);
  return (
    <>
      <FindingDetails
        subject={subject}
        kinds={report.findingKinds}
        triage={
          triage.phase === 'loaded'
            ? { decisions: triage.decisions, canTriage: triage.view.canTriage, onChange: change }
            : {
                unavailable: triage.phase === 'loading' ? 'Reading whether this finding is accepted or snoozed…' : 'Whether this finding is accepted or snoozed could not be read.',
              }
        }
        format={format}
        onClose={onClose}
        {...(triage.phase === 'loaded'
          ? {
              baseline: {
                canApprove: triage.view.canTriage,
                onChange: async (action: 'approve' | 'withdraw', policyId: string) => {
                  try {
                    await api.changeBaseline(action, policyId);
                    return null;
                  } catch (error) {
                    if (error instanceof ApiError) return error;
                    throw error;
                  }
                },
              },
            }
          : {})}
        onWhatApplies={(query) => {
          onClose();
          setApplies(query);
        }}
      />
      <AppliesDialog api={api} query={applies} onAsk={setApplies} onClose={() => setApplies(null)} />
    </>
  );
}
