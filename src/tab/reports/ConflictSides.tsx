import { Body1, Caption1, Link, Subtitle2, Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import type { CellTone } from '../../core/reports/report-model.js';
import type { ConflictSides } from '../../core/reports/setting-conflicts/sides.js';
import { PHONE } from '../app/breakpoints.js';
import { notDecidingWords } from './conflict-sides-words.js';

/** A setting-conflict row's pane: the setting, its verdict and who both reach, then each policy that sets it beside the others. */
export interface ConflictComparison {
  /** The setting's display name, or its id where its definition was not read. */
  setting: string;
  settingId: string;
  /** The row's verdict and its tone, as the table shows them. */
  verdict: { text: string; tone: CellTone | null } | null;
  /** The row's Overlap cell: who the policies both reach, in a few words. */
  overlap: string | null;
  sides: ConflictSides;
}

/** What a secret setting shows: that it is set, never a value (setting-values.ts never keeps one). */
export const SECRET_SET = 'set (secret)';

const useStyles = makeStyles({
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, paddingBottom: tokens.spacingVerticalL },
  // Setting ids and policy names are long unbroken words: they wrap anywhere rather than leave the pane.
  wrap: { margin: 0, overflowWrap: 'anywhere' },
  summary: { margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: tokens.spacingHorizontalS, rowGap: tokens.spacingVerticalXXS },
  // As many cards abreast as fit (two in the pane's width); one above the other on a phone.
  cards: {
    listStyleType: 'none',
    margin: 0,
    padding: 0,
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 14em), 1fr))',
    gap: tokens.spacingHorizontalM,
    [PHONE]: { gridTemplateColumns: '1fr' },
  },
  // A border, not a shade alone, marks each card: forced colours keep borders and drop backgrounds.
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground1,
    color: tokens.colorNeutralForeground1,
    minWidth: 0,
  },
  deciding: { border: `${tokens.strokeWidthThick} solid ${tokens.colorNeutralStrokeAccessible}` },
  label: { color: tokens.colorNeutralForeground2 },
  // The table's tone colours (ReportTable.tsx); the words say the verdict, so colour is never the only cue.
  danger: { color: tokens.colorPaletteRedForeground1, fontWeight: tokens.fontWeightSemibold },
  warning: { color: tokens.colorPaletteDarkOrangeForeground1 },
  ok: { color: tokens.colorPaletteGreenForeground1 },
});

/**
 * Each policy that sets one setting, side by side: its name (its page in the Intune admin center),
 * the value it sets, and, where more than two set it, whether it is one of the two the verdict is about; above them the setting
 * (name and id), the verdict and who both policies reach. A list of cards, so a screen reader counts
 * them, and links the keys reach in reading order.
 */
export function ConflictSidesSection({ comparison, locale }: { comparison: ConflictComparison; locale: string }) {
  const styles = useStyles();
  const { setting, settingId, verdict, overlap, sides } = comparison;
  // Which two decide the verdict says something only where more than two set the setting.
  const marked = sides.policies.length > 2;
  const toneClass = verdict?.tone === 'danger' ? styles.danger : verdict?.tone === 'warning' ? styles.warning : verdict?.tone === 'ok' ? styles.ok : undefined;
  return (
    <section className={styles.section} aria-label="Policies side by side" data-conflict-sides>
      <Subtitle2 as="h3">Policies side by side</Subtitle2>
      <Body1 className={styles.wrap} data-conflict-setting>
        <Text weight="semibold">{setting}</Text>
      </Body1>
      {setting !== settingId ? <Caption1 className={styles.wrap} data-conflict-setting-id>{`Setting id ${settingId}`}</Caption1> : null}
      <dl className={styles.summary}>
        {verdict ? (
          <>
            <dt className={styles.label}>Verdict</dt>
            <dd className={mergeClasses(styles.wrap, toneClass)} data-conflict-verdict data-tone={verdict.tone ?? undefined}>
              {verdict.text}
            </dd>
          </>
        ) : null}
        {overlap ? (
          <>
            <dt className={styles.label}>Overlap</dt>
            <dd className={styles.wrap} data-conflict-overlap>
              {overlap}
            </dd>
          </>
        ) : null}
      </dl>
      <ul className={styles.cards} role="list" aria-label={`Policies that set ${setting}`}>
        {sides.policies.map((side) => (
          <li
            key={side.policyId}
            className={mergeClasses(styles.card, side.decides && styles.deciding)}
            data-conflict-side={side.policyId}
            data-decides={side.decides ? '' : undefined}
          >
            <Text weight="semibold" className={styles.wrap} data-conflict-policy>
              {side.link ? (
                <Link href={side.link} target="_blank" rel="noopener noreferrer" aria-label={`${side.name}, open in the Intune admin center`}>
                  {side.name}
                </Link>
              ) : (
                side.name
              )}
            </Text>
            <Caption1 className={styles.label}>Sets</Caption1>
            <Body1 className={styles.wrap} data-conflict-value data-secret={side.secret ? '' : undefined}>
              {side.secret ? SECRET_SET : side.value}
            </Body1>
            {marked && side.decides ? <Caption1 className={styles.label}>One of the two policies the verdict is about</Caption1> : null}
            {marked && !side.decides ? (
              <Caption1 className={styles.label} data-conflict-not-deciding>
                {notDecidingWords(side, sides.policies)}
              </Caption1>
            ) : null}
          </li>
        ))}
      </ul>
      {sides.more > 0 ? <Caption1>{`And ${sides.more.toLocaleString(locale)} more ${sides.more === 1 ? 'policy sets' : 'policies set'} it, not listed here.`}</Caption1> : null}
    </section>
  );
}
