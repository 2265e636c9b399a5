import { MessageBar, MessageBarBody, MessageBarTitle, makeStyles } from '@fluentui/react-components';
import { ClampedText } from './ClampedText.js';

const useStyles = makeStyles({
  // The server's reasons name roles and permissions, long words on a narrow tile.
  reason: { overflowWrap: 'anywhere' },
});

/**
 * One calm banner for a viewer whose Intune role assignments let them see nothing (the viewer scope
 * on, docs/finding-rules.md "Viewer scope"), in place of every report: nothing failed, so it is not
 * an error, and the server's reason is said once rather than on each report.
 */
export function NoAccessBanner({ explanation }: { explanation: string }) {
  const styles = useStyles();
  return (
    <MessageBar intent="info" layout="multiline" data-state="no-intune-access">
      <MessageBarBody className={styles.reason}>
        <MessageBarTitle>No tenant data to show you</MessageBarTitle>
        {explanation}
      </MessageBarBody>
    </MessageBar>
  );
}

/**
 * A report the viewer's Intune scope does not show them (a 403 `outsideViewerScope`,
 * docs/contract.md): what their role is, not a load that failed, so a neutral note with the
 * server's reason, cut to a few lines in a tile.
 */
export function OutsideScopeNote({ reason, scope, compact = false }: { reason: string; scope: string | null; compact?: boolean }) {
  const styles = useStyles();
  return (
    <MessageBar intent="info" layout="multiline" data-state="outside-scope">
      <MessageBarBody className={styles.reason}>
        <MessageBarTitle>Not in your scope{scope ? ` (${scope})` : ''}</MessageBarTitle>
        {compact ? <ClampedText text={reason} lines={3} /> : reason}
      </MessageBarBody>
    </MessageBar>
  );
}
