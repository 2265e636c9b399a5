import { Badge, Caption1, CounterBadge, Text, ToggleButton, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { FindingCount } from '../../core/findings/finding-kinds.js';
import { SEVERITY_BADGE } from './severity.js';

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
  selected: { border: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  visuallyHidden: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
  clear: { color: tokens.colorPaletteGreenForeground1 },
});

export interface FindingsSummaryProps {
  counts: FindingCount[];
  /** The kind the table is narrowed to, if any. */
  selected: string | null;
  /** Narrows the table to a kind, or (the selected kind again) shows every row. */
  onSelect: (kind: string | null) => void;
}

/**
 * The report's findings counted by kind, worst first; the first thing an admin reads. Each kind is
 * a toggle: pressed, the table shows only the rows with a finding of that kind.
 */
export function FindingsSummary({ counts, selected, onSelect }: FindingsSummaryProps) {
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
        <li key={kind} data-finding-kind={kind} data-finding-count={count}>
          <ToggleButton
            className={mergeClasses(styles.item, selected === kind && styles.selected)}
            appearance="subtle"
            checked={selected === kind}
            onClick={() => onSelect(selected === kind ? null : kind)}
            title={selected === kind ? 'Show every row again' : 'Show only the rows with this finding'}
          >
            <CounterBadge count={count} overflowCount={999_999} color={severity === 'high' ? 'danger' : 'informative'} aria-hidden />
            <span className={styles.visuallyHidden}>{count}</span>
            <Text>{label}</Text>
            <Badge appearance="tint" color={SEVERITY_BADGE[severity].color} size="small">
              <Caption1>
                {SEVERITY_BADGE[severity].label}
                <span className={styles.visuallyHidden}> severity</span>
              </Caption1>
            </Badge>
          </ToggleButton>
        </li>
      ))}
    </ul>
  );
}
