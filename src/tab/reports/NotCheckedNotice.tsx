import { Button, MessageBar, MessageBarBody, MessageBarTitle, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { PHONE_LAYOUT } from '../app/breakpoints.js';
import { useMediaQuery } from '../app/use-media-query.js';
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
  // On a phone the checks' list would push the table's first rows off the first screen: the
  // headline and the permission stay, the list is one tap away.
  const phone = useMediaQuery(PHONE_LAYOUT);
  const [open, setOpen] = useState(false);
  if (sources.length === 0) return null;
  const worst = worstNotChecked(sources);
  const permissions = [...new Set(sources.map((source) => source.permission))];
  return (
    <MessageBar intent={worst === 'high' ? 'error' : 'warning'} layout="multiline" data-state="not-checked" data-unavailable data-not-checked-worst={worst ?? undefined}>
      <MessageBarBody className={styles.body}>
        <MessageBarTitle>{notCheckedHeadline(sources)}.</MessageBarTitle>{' '}
        {compact || (phone && !open) ? (
          <>
            <Text>Needs {permissions.join(' and ')}, not granted. The findings shown are not all there is.</Text>
            {compact ? null : (
              <Button appearance="transparent" size="small" aria-expanded={false} onClick={() => setOpen(true)} data-not-checked-more>
                Which checks
              </Button>
            )}
          </>
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
