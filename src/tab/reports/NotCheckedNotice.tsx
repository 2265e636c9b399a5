import { MessageBar, MessageBarBody, MessageBarTitle, Text, makeStyles, tokens } from '@fluentui/react-components';
import { SEVERITY_LABEL } from '../../core/findings/finding-kinds.js';
import { notCheckedHeadline, notCheckedReasonText, worstNotChecked } from '../../core/reports/not-checked.js';
import type { NotCheckedSource } from '../../core/reports/not-checked.js';

const useStyles = makeStyles({
  list: { margin: `${tokens.spacingVerticalXXS} 0 0`, paddingInlineStart: tokens.spacingHorizontalL },
  // Permission names are long single words: they break rather than run out of a tile.
  body: { overflowWrap: 'anywhere' },
});

export interface NotCheckedNoticeProps {
  sources: readonly NotCheckedSource[];
  /** The overview's tile: the headline and the permission to grant, without the reasons' sentences. */
  compact?: boolean;
}

/**
 * Checks a load could not run (not-checked.ts), said where the findings are: which checks, at worst
 * how bad, which source Graph refused and the permission to grant. Shown as a warning, or an error
 * where a High check did not run: "not checked" is never good news, and the findings beside it are
 * not all there is.
 */
export function NotCheckedNotice({ sources, compact = false }: NotCheckedNoticeProps) {
  const styles = useStyles();
  if (sources.length === 0) return null;
  const worst = worstNotChecked(sources);
  const permissions = [...new Set(sources.map((source) => source.permission))];
  return (
    <MessageBar intent={worst === 'high' ? 'error' : 'warning'} layout="multiline" data-state="not-checked" data-unavailable data-not-checked-worst={worst ?? undefined}>
      <MessageBarBody className={styles.body}>
        <MessageBarTitle>{notCheckedHeadline(sources)}.</MessageBarTitle>{' '}
        {compact ? (
          <Text>Needs {permissions.join(' and ')}, not granted. The findings shown are not all there is.</Text>
        ) : (
          <>
            <Text>The findings below are not all there is.</Text>
            <ul className={styles.list}>
              {sources.map((source) => (
                <li key={source.permission + source.column} data-not-checked-permission={source.permission}>
                  {source.checks.map((check) => `${check.label} (${SEVERITY_LABEL[check.severity]})`).join('; ')}. {notCheckedReasonText(source)}
                </li>
              ))}
            </ul>
          </>
        )}
      </MessageBarBody>
    </MessageBar>
  );
}
