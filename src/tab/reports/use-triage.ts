import { useCallback, useEffect, useState } from 'react';
import type { ReportId } from '../../core/reports/report-model.js';
import type { TriageDecision, TriageRequest, TriageView } from '../../core/triage/triage-book.js';
import { ApiError } from '../api/report-api.js';
import type { ReportApi } from '../api/report-api.js';

export type TriageLoad = { phase: 'loading' } | { phase: 'loaded'; view: TriageView; decisions: ReadonlyMap<string, TriageDecision> } | { phase: 'failed'; error: ApiError };

/**
 * A report's triage: the decisions in force by fingerprint, the audit list and whether this user may
 * change them. `change` sends one request and takes the server's answer as the new state; a refused
 * change comes back as its error, for the place that asked.
 */
export function useTriage(api: ReportApi | null, id: ReportId, generation: string): { triage: TriageLoad; change: (request: TriageRequest) => Promise<ApiError | null> } {
  const [triage, setTriage] = useState<TriageLoad>({ phase: 'loading' });

  useEffect(() => {
    if (!api) return;
    const controller = new AbortController();
    api.triage(id, controller.signal).then(
      (view) => setTriage(loaded(view)),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setTriage({ phase: 'failed', error: error instanceof ApiError ? error : new ApiError(null, String(error)) });
      },
    );
    return () => controller.abort();
    // A newer result of the report (generation) may be what an ended snooze is read against.
  }, [api, id, generation]);

  const change = useCallback(
    async (request: TriageRequest): Promise<ApiError | null> => {
      if (!api) return new ApiError(null, 'The app is still starting.');
      try {
        setTriage(loaded(await api.changeTriage(id, request)));
        return null;
      } catch (error) {
        return error instanceof ApiError ? error : new ApiError(null, String(error));
      }
    },
    [api, id],
  );
  return { triage, change };
}

function loaded(view: TriageView): TriageLoad {
  return { phase: 'loaded', view, decisions: new Map(view.decisions.map((decision) => [decision.fingerprint, decision])) };
}
