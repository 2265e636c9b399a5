import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReportId, ReportResult } from '../../core/reports/report-model.js';
import { ApiError } from '../api/report-api.js';
import type { LoadProgressSnapshot, ReportApi } from '../api/report-api.js';

export type ReportViewState =
  | { phase: 'loading'; progress: LoadProgressSnapshot | null }
  | { phase: 'loaded'; report: ReportResult; refreshing: boolean; progress: LoadProgressSnapshot | null }
  | { phase: 'failed'; error: ApiError };

/** How often a pending load asks the server how far it has got. */
const PROGRESS_POLL_MS = 500;

/**
 * One report from the API, with the server's progress while it loads and an explicit refresh that
 * keeps the current table on screen until the new one arrives.
 */
export function useReport(api: ReportApi | null, id: ReportId): { state: ReportViewState; refresh: () => void } {
  const [state, setState] = useState<ReportViewState>({ phase: 'loading', progress: null });
  const [request, setRequest] = useState({ refresh: false, generation: 0 });
  const current = useRef(state);
  current.current = state;

  useEffect(() => {
    if (!api) return;
    const controller = new AbortController();
    const { signal } = controller;
    const showProgress = (progress: LoadProgressSnapshot) => setState((previous) => (previous.phase === 'failed' ? previous : { ...previous, progress }));
    if (current.current.phase === 'failed') setState({ phase: 'loading', progress: null });

    const poll = setInterval(() => {
      api.progress(id, signal).then(
        (progress) => !signal.aborted && progress.loading && showProgress(progress),
        () => undefined, // progress is a courtesy; the report request reports real failures
      );
    }, PROGRESS_POLL_MS);

    api
      .report(id, { refresh: request.refresh, signal })
      .then(
        (report) => {
          if (!signal.aborted) setState({ phase: 'loaded', report, refreshing: false, progress: null });
        },
        (error: unknown) => {
          if (signal.aborted) return;
          if (!(error instanceof ApiError)) throw error;
          setState({ phase: 'failed', error });
        },
      )
      .finally(() => clearInterval(poll));

    return () => {
      controller.abort();
      clearInterval(poll);
    };
  }, [api, id, request]);

  const refresh = useCallback(() => {
    setState((previous) => (previous.phase === 'loaded' ? { ...previous, refreshing: true } : { phase: 'loading', progress: null }));
    setRequest((previous) => ({ refresh: true, generation: previous.generation + 1 }));
  }, []);

  return { state, refresh };
}
