import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReportId, ReportResult } from '../../core/reports/report-model.js';
import { isPartialReport } from '../../core/reports/report-preview.js';
import type { ReportPreview } from '../../core/reports/report-preview.js';
import { ApiError } from '../api/report-api.js';
import type { LoadProgressSnapshot, ReportApi, Served } from '../api/report-api.js';

export type LoadState<T> =
  | { phase: 'loading'; progress: LoadProgressSnapshot | null }
  | { phase: 'loaded'; report: T; refreshing: boolean; progress: LoadProgressSnapshot | null }
  | { phase: 'failed'; error: ApiError };

export type ReportViewState = LoadState<ReportResult>;

export interface ReportFetchOptions<T> {
  refresh?: boolean;
  signal?: AbortSignal;
  /** Set when nothing is on screen yet: shows a first part of the answer, resolved once it is painted. */
  showFirst?: (served: Served<T>) => Promise<void>;
}

/** What one report is read as: the whole report, or its summary for the overview. */
export type ReportFetch<T> = (api: ReportApi, id: ReportId, options: ReportFetchOptions<T>) => Promise<Served<T>>;

/**
 * The whole report. Opened afresh, its preview comes first: a small report is whole in it, and a
 * large one's first rows are painted before the rest is asked for, so the rest's parsing cannot
 * hold up the first screen. A refresh with a table on screen asks for the whole report at once.
 * A report of `windowFrom` rows or more is never downloaded whole: its preview is the answer, and
 * the table reads windows of it from the server (`isWindowedReport`); a refresh of one asks for the
 * preview again.
 */
function wholeReport(windowFrom: number, windowed: { current: boolean }): ReportFetch<ReportResult> {
  return async (api, id, { showFirst, ...options }) => {
    if (!showFirst && !windowed.current) return api.report(id, options);
    const preview = await api.reportPreview(id, options);
    if (!isPartialReport(preview.value) || isWindowedReport(preview.value, windowFrom)) return preview;
    if (showFirst) {
      await showFirst(preview);
      if (options.signal?.aborted) return preview; // left or refreshed meanwhile: the caller drops the answer
    }
    // The preview's request started any load it asked for; the whole report is that load's result.
    return api.report(id, options.signal ? { signal: options.signal } : {});
  };
}

/** A preview of a report of `windowFrom` rows or more: read in windows from the server, never whole. */
export function isWindowedReport(report: ReportResult, windowFrom: number): report is ReportPreview {
  return isPartialReport(report) && report.whole.rows >= windowFrom;
}

/**
 * Resolves once the browser has painted what was rendered before it was called, or after 100 ms:
 * a hidden page (a background tab, Teams behind another app) paints no frames, and must not wait
 * for the whole report until it is shown.
 */
function afterNextPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(fallback);
        resolve();
      }, 0),
    );
  });
}

/** How often a pending load asks the server how far it has got. */
const PROGRESS_POLL_MS = 500;

/**
 * One report from the API, with the server's progress while it loads and an explicit refresh that
 * keeps the current table on screen until the new one arrives.
 */
export function useReport(api: ReportApi | null, id: ReportId, windowFrom: number): { state: ReportViewState; refresh: () => void } {
  const windowed = useRef(false);
  const fetchOne = useMemo(() => wholeReport(windowFrom, windowed), [windowFrom]);
  const load = useReportLoad(api, id, fetchOne);
  windowed.current = load.state.phase === 'loaded' && isWindowedReport(load.state.report, windowFrom);
  return load;
}

/** One report read through `fetchOne` (stable across renders), with the server's progress while it loads. */
export function useReportLoad<T>(api: ReportApi | null, id: ReportId, fetchOne: ReportFetch<T>): { state: LoadState<T>; refresh: () => void } {
  const [state, setState] = useState<LoadState<T>>({ phase: 'loading', progress: null });
  const [request, setRequest] = useState({ refresh: false, generation: 0 });
  const current = useRef(state);
  current.current = state;

  useEffect(() => {
    if (!api) return;
    const controller = new AbortController();
    const { signal } = controller;
    const showProgress = (progress: LoadProgressSnapshot) => setState((previous) => (previous.phase === 'failed' ? previous : { ...previous, progress }));
    if (current.current.phase === 'failed') setState({ phase: 'loading', progress: null });

    /** Asks the server how far the load has got and shows it; `onDone` runs once no load is under way. */
    const watchProgress = (onDone?: () => void) => {
      const watching = setInterval(() => {
        api.progress(id, signal).then(
          (progress) => {
            if (signal.aborted) return;
            if (progress.loading) return showProgress(progress);
            if (!onDone) return;
            clearInterval(watching);
            onDone();
          },
          () => undefined, // progress is a courtesy; the report request reports real failures
        );
      }, PROGRESS_POLL_MS);
      return watching;
    };

    const poll = watchProgress();

    let revalidating: ReturnType<typeof setInterval> | undefined;
    const showFirst = (served: Served<T>) => {
      if (signal.aborted) return Promise.resolve();
      setState({ phase: 'loaded', report: served.value, refreshing: served.refreshing, progress: null });
      return afterNextPaint();
    };
    fetchOne(api, id, { refresh: request.refresh, signal, ...(current.current.phase === 'loaded' ? {} : { showFirst }) })
      .then(
        ({ value: report, refreshing }) => {
          if (signal.aborted) return;
          setState({ phase: 'loaded', report, refreshing, progress: null });
          if (!refreshing) return;
          // The server sent its last good result while a newer one loads: show how far that load
          // has got, and fetch again once it is done, so the new result replaces the old.
          revalidating = watchProgress(() => setRequest((previous) => ({ refresh: false, generation: previous.generation + 1 })));
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
      clearInterval(revalidating);
    };
  }, [api, id, request, fetchOne]);

  const refresh = useCallback(() => {
    setState((previous) => (previous.phase === 'loaded' ? { ...previous, refreshing: true } : { phase: 'loading', progress: null }));
    setRequest((previous) => ({ refresh: true, generation: previous.generation + 1 }));
  }, []);

  return { state, refresh };
}
