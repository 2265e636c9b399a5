import { Badge, Caption1, Text, ToggleButton, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { findingKind } from '../../core/findings/finding-kinds.js';
import type { FindingCount, FindingKindTable } from '../../core/findings/finding-kinds.js';
import type { TriageState } from '../../core/triage/triage-book.js';
import { SEVERITY_BADGE } from './severity.js';
import { VISUALLY_HIDDEN } from './visually-hidden.js';
import { PHONE } from '../app/breakpoints.js';
import { kindLabel } from '../../core/text/words.js';

const useStyles = makeStyles({
  summary: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    // On a phone the kinds are one row (see `strip`), rather than a stack above the table.
    [PHONE]: { flexWrap: 'nowrap', flexShrink: 0 },
  },
  // On a phone the open kinds and the accepted and snoozed counts share one row that scrolls
  // sideways: a second row would push the table's first row off the first screen. Positioned, so
  // that the counts hidden for screen readers scroll with it, not with the page.
  strip: {
    display: 'contents',
    [PHONE]: { display: 'flex', gap: tokens.spacingHorizontalS, overflowX: 'auto', paddingBottom: tokens.spacingVerticalXS, position: 'relative' },
  },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`,
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
    [PHONE]: { flexShrink: 0, whiteSpace: 'nowrap' },
  },
  // One line each on a phone, where the kinds scroll sideways; wrapped where they wrap.
  label: { [PHONE]: { whiteSpace: 'nowrap' } },
  selected: { border: `${tokens.strokeWidthThick} solid ${tokens.colorBrandStroke1}`, backgroundColor: tokens.colorBrandBackground2 },
  visuallyHidden: VISUALLY_HIDDEN,
  clear: { color: tokens.colorPaletteGreenForeground1 },
});

/** What the table is narrowed to: the rows with an open finding of a kind, or with an accepted or snoozed one. */
export type FindingFilter = { kind: string } | { triage: TriageState } | null;

export interface FindingsSummaryProps {
  /** Open findings counted by kind, worst first. */
  counts: FindingCount[];
  /** The report's finding kinds: what a pressed kind is called once none of it is open. */
  kinds: FindingKindTable;
  /** Accepted and snoozed findings, counted apart. */
  triaged: Record<TriageState, number>;
  selected: FindingFilter;
  /** Narrows the table, or (the selected toggle again) shows every row. */
  onSelect: (filter: FindingFilter) => void;
  locale: string;
  /** Some checks did not run (the notice above says which): no findings is then not good news. */
  notChecked?: boolean;
}

const TRIAGED_LABEL: Record<TriageState, string> = { accepted: 'Accepted', snoozed: 'Snoozed' };

/**
 * The report's open findings counted by kind, worst first; the first thing an admin reads. Each kind
 * is a toggle: pressed, the table shows only the rows with a finding of that kind. Accepted and
 * snoozed findings follow, counted apart, with toggles of their own: never hidden, never counted as open.
 */
export function FindingsSummary({ counts: open, kinds, triaged, selected, onSelect, locale, notChecked = false }: FindingsSummaryProps) {
  const styles = useStyles();
  const number = new Intl.NumberFormat(locale);
  const selectedKind = selected && 'kind' in selected ? selected.kind : null;
  const selectedTriage = selected && 'triage' in selected ? selected.triage : null;
  // A pressed toggle stays, at 0, while it narrows the table (the last finding of its kind accepted,
  // the last accepted one reopened): the admin lets go of it where they pressed it.
  const counts = selectedKind !== null && !open.some(({ kind }) => kind === selectedKind) ? [...open, { kind: selectedKind, count: 0, ...findingKind(kinds, selectedKind) }] : open;
  const apart = (['accepted', 'snoozed'] as const).filter((state) => triaged[state] > 0 || selectedTriage === state);
  const triagedList =
    apart.length > 0 ? (
      <ul className={styles.summary} aria-label="Accepted and snoozed findings, shown apart">
        {apart.map((state) => (
          <li key={state} data-triaged={state} data-finding-count={triaged[state]}>
            <ToggleButton
              className={mergeClasses(styles.item, selectedTriage === state && styles.selected)}
              appearance="subtle"
              checked={selectedTriage === state}
              onClick={() => onSelect(selectedTriage === state ? null : { triage: state })}
              title={selectedTriage === state ? 'Show every row again' : `Show only the rows with a finding ${state}`}
            >
              <Badge shape="circular" appearance="ghost" color="informative" aria-hidden>
                {number.format(triaged[state])}
              </Badge>
              <span className={styles.visuallyHidden}>{number.format(triaged[state])}</span>
              <Text>{TRIAGED_LABEL[state]}</Text>
            </ToggleButton>
          </li>
        ))}
      </ul>
    ) : null;
  if (counts.length === 0) {
    return (
      <>
        <Text className={notChecked ? undefined : styles.clear} weight="semibold" role="status">
          {notChecked
            ? 'No findings from the checks that ran.'
            : apart.length > 0
              ? 'No open findings: the others are accepted or snoozed.'
              : 'No findings: nothing here needs attention.'}
        </Text>
        {triagedList}
      </>
    );
  }
  return (
    <div className={styles.strip}>
      <ul className={styles.summary} aria-label="Open findings by kind, worst first">
        {counts.map(({ kind, label, one, severity, count }) => (
          <li key={kind} data-finding-kind={kind} data-finding-count={count}>
            <ToggleButton
              className={mergeClasses(styles.item, selectedKind === kind && styles.selected)}
              appearance="subtle"
              checked={selectedKind === kind}
              onClick={() => onSelect(selectedKind === kind ? null : { kind })}
              title={selectedKind === kind ? 'Show every row again' : 'Show only the rows with this finding'}
            >
              {/* A count as the rest of the tab writes it: 8,235, not 8235. */}
              <Badge shape="circular" appearance="filled" color={severity === 'high' ? 'danger' : 'informative'} aria-hidden>
                {number.format(count)}
              </Badge>
              <span className={styles.visuallyHidden}>{number.format(count)}</span>
              <Text className={styles.label}>{kindLabel({ label, one }, count)}</Text>
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
      {triagedList}
    </div>
  );
}
