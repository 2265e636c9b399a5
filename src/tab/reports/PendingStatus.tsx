import { Caption1, Skeleton, SkeletonItem, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { LoadProgressSnapshot } from '../api/report-api.js';
import { LOADING_TEXT } from '../../core/reports/report-model.js';
import { countOf } from '../../core/text/words.js';

const useStyles = makeStyles({
  status: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, padding: `${tokens.spacingVerticalL} 0` },
  line: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS },
  skeleton: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxWidth: '720px' },
});

const recordCount = new Intl.NumberFormat();

/** What the server has read so far, source by source: "managedDevices: 42,000 records". */
export function describeProgress(progress: LoadProgressSnapshot): string {
  const sources = progress.sources.map(({ source, records }) => `${source}: ${countOf(records, 'record', 'records', recordCount)}`);
  const seconds = Math.floor(progress.elapsedMs / 1000);
  return [...sources, ...(seconds >= 1 ? [`${seconds} s`] : [])].join(' · ');
}

/**
 * The specification's words while a report is not yet on screen, with how far the server has got;
 * `compact` (an overview tile) leaves out the placeholder rows.
 */
export function PendingStatus({ text, progress, compact = false }: { text: string; progress: LoadProgressSnapshot | null; compact?: boolean }) {
  const styles = useStyles();
  const detail = progress && progress.sources.length > 0 ? describeProgress(progress) : null;
  return (
    <div className={styles.status} role="status" aria-live="polite" data-pending={text}>
      <div className={styles.line}>
        <Spinner size="tiny" aria-hidden />
        <Text weight="semibold">{text}</Text>
      </div>
      {detail ? <Caption1 data-progress>Reading {detail}</Caption1> : null}
      {text === LOADING_TEXT && !compact ? (
        <Skeleton className={styles.skeleton} aria-hidden>
          <SkeletonItem size={16} />
          <SkeletonItem size={16} />
          <SkeletonItem size={16} />
        </Skeleton>
      ) : null}
    </div>
  );
}
