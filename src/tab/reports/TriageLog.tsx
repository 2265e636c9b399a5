import {
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  DialogTrigger,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { TriageAuditEntry } from '../../core/triage/triage-book.js';
import type { FindingKindTable } from '../../core/findings/finding-kinds.js';
import { findingKind } from '../../core/findings/finding-kinds.js';
import { relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { snoozeDay } from './TriageControls.js';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, margin: 0, paddingLeft: tokens.spacingHorizontalL },
  muted: { color: tokens.colorNeutralForeground3 },
});

const DONE: Record<TriageAuditEntry['action'], string> = { accept: 'accepted', snooze: 'snoozed', reopen: 'reopened' };

/** Who accepted, snoozed or reopened which finding of the report, newest first: the audit list, in a dialog. */
export function TriageLog({ audit, kinds, format }: { audit: readonly TriageAuditEntry[]; kinds: FindingKindTable; format: FormatContext }) {
  const styles = useStyles();
  return (
    <Dialog>
      <DialogTrigger disableButtonEnhancement>
        <Button appearance="subtle" disabled={audit.length === 0} data-triage-log={audit.length}>
          Triage log ({audit.length})
        </Button>
      </DialogTrigger>
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>Who accepted, snoozed and reopened findings</DialogTitle>
          <DialogContent>
            <ol className={styles.list}>
              {audit.map((entry) => (
                <li key={`${entry.at}-${entry.fingerprint}-${entry.action}`}>
                  <Body1>
                    {entry.by.name || entry.by.username} {DONE[entry.action]} “{findingKind(kinds, entry.kind).label}” on {entry.subjectName}
                    {entry.action === 'snooze' && entry.until ? ` until ${snoozeDay(entry.until, format)}` : ''}
                    {entry.reason ? `: ${entry.reason}` : ''}
                  </Body1>
                  <br />
                  <Caption1 className={styles.muted} title={new Date(entry.at).toLocaleString(format.locale)}>
                    {relativeTime(Date.parse(entry.at), format)}
                    {entry.by.username ? ` · ${entry.by.username}` : ''}
                  </Caption1>
                </li>
              ))}
            </ol>
          </DialogContent>
          <DialogActions>
            <DialogTrigger disableButtonEnhancement>
              <Button appearance="primary">Close</Button>
            </DialogTrigger>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
