import { Badge, Caption1, CounterBadge, Text, makeStyles, tokens } from '@fluentui/react-components';
import type { FindingCount, FindingSeverity } from '../../core/findings/finding-kinds.js';

const useStyles = makeStyles({
  summary: { display: 'flex', flexWrap: 'wrap', gap: tokens.spacingHorizontalS, alignItems: 'center', listStyleType: 'none', margin: 0, padding: 0 },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  visuallyHidden: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
  clear: { color: tokens.colorPaletteGreenForeground1 },
});

const SEVERITY_BADGE: Record<FindingSeverity, { color: 'danger' | 'warning' | 'informative'; label: string }> = {
  high: { color: 'danger', label: 'High' },
  medium: { color: 'warning', label: 'Medium' },
  low: { color: 'informative', label: 'Low' },
};

/** The report's findings counted by kind, worst first; the first thing an admin reads. */
export function FindingsSummary({ counts }: { counts: FindingCount[] }) {
  const styles = useStyles();
  if (counts.length === 0) {
    return (
      <Text className={styles.clear} weight="semibold" role="status">
        No findings: nothing here needs attention.
      </Text>
    );
  }
  return (
    <ul className={styles.summary} aria-label="Findings by kind, worst first">
      {counts.map(({ kind, label, severity, count }) => (
        <li key={kind} className={styles.item} data-finding-kind={kind} data-finding-count={count}>
          <CounterBadge count={count} overflowCount={999_999} color={severity === 'high' ? 'danger' : 'informative'} aria-hidden />
          <span className={styles.visuallyHidden}>{count}</span>
          <Text>{label}</Text>
          <Badge appearance="tint" color={SEVERITY_BADGE[severity].color} size="small">
            <Caption1>
              {SEVERITY_BADGE[severity].label}
              <span className={styles.visuallyHidden}> severity</span>
            </Caption1>
          </Badge>
        </li>
      ))}
    </ul>
  );
}
