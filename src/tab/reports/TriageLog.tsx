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
  Dropdown,
  Field,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  Spinner,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReportId } from '../../core/reports/report-model.js';
import type { TriageAuditEntry } from '../../core/triage/triage-book.js';
import { personLabel } from '../../core/triage/audit-page.js';
import type { AuditPage, AuditPerson } from '../../core/triage/audit-page.js';
import type { FindingKindTable } from '../../core/findings/finding-kinds.js';
import { findingKind } from '../../core/findings/finding-kinds.js';
import { ApiError } from '../api/report-api.js';
import type { ReportApi } from '../api/report-api.js';
import { relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { snoozeDay } from './TriageControls.js';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  // No numbers: a page of hundreds would need a margin of its own for them, and an entry's place says nothing.
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, margin: 0, padding: 0, listStyleType: 'none' },
  muted: { color: tokens.colorNeutralForeground3 },
  footer: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
});

const DONE: Record<TriageAuditEntry['action'], string> = { accept: 'accepted', snooze: 'snoozed', reopen: 'reopened' };
/** Entries asked for at a time: a screen or two of the dialog. */
export const TRIAGE_LOG_PAGE = 50;
/** The picker's value for everyone's entries (an object id is never empty). */
const EVERYONE = '';

/**
 * Who accepted, snoozed or reopened which finding of the report, newest first: the audit list, in a
 * dialog, read from the server a page at a time ("Show older") and narrowed to one person's entries
 * with the picker, so that however many entries one person makes, everyone's can be read
 * (docs/contract.md, "Triage").
 */
export function TriageLog({ api, report, count, kinds, format }: { api: ReportApi; report: ReportId; count: number; kinds: FindingKindTable; format: FormatContext }) {
  // With nothing logged there is nothing to open: words, not a greyed-out button that looks broken.
  if (count === 0) {
    return <Text data-triage-log={0}>No triage yet</Text>;
  }
  return (
    <Dialog>
      <DialogTrigger disableButtonEnhancement>
        <Button appearance="subtle" data-triage-log={count}>
          Triage log ({count})
        </Button>
      </DialogTrigger>
      <DialogSurface aria-describedby={undefined}>
        <DialogBody>
          <DialogTitle>Who accepted, snoozed and reopened findings</DialogTitle>
          {/* Mounted while the dialog is open: each opening reads the log afresh. */}
          <TriageLogPages api={api} report={report} kinds={kinds} format={format} />
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

/** The pages read so far for the person picked, and what is under way. */
interface LogState {
  person: string | null;
  entries: TriageAuditEntry[];
  older: number | null;
  total: number;
  people: AuditPerson[];
  /** A page on its way: the first (the list is replaced) or an older one (added below). */
  loading: 'first' | 'older' | null;
  failed: { page: 'first' | 'older'; error: ApiError } | null;
}

function TriageLogPages({ api, report, kinds, format }: { api: ReportApi; report: ReportId; kinds: FindingKindTable; format: FormatContext }) {
  const styles = useStyles();
  const [state, setState] = useState<LogState>({ person: null, entries: [], older: null, total: 0, people: [], loading: 'first', failed: null });
  // One page is asked for at a time: a newer ask (another person, the dialog closed) cancels the one before.
  const inFlight = useRef<AbortController | null>(null);
  // Where the last older page began: focus goes there once "Show older" has gone (the oldest was read), not to the page's end.
  const firstOfOlder = useRef<number | null>(null);
  const list = useRef<HTMLOListElement | null>(null);

  const read = useCallback(
    (page: 'first' | 'older', person: string | null, before: number | null) => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setState((current) => ({ ...current, person, loading: page, failed: null, ...(page === 'first' ? { entries: [], older: null } : {}) }));
      api.triageAudit(report, { limit: TRIAGE_LOG_PAGE, before, person }, controller.signal).then(
        (answer: AuditPage) => {
          if (controller.signal.aborted) return;
          firstOfOlder.current = page === 'older' && answer.older === null ? (answer.entries[0]?.seq ?? null) : null;
          setState((current) => ({
            ...current,
            entries: page === 'first' ? answer.entries : [...current.entries, ...answer.entries],
            older: answer.older,
            total: answer.total,
            people: answer.people,
            loading: null,
          }));
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setState((current) => ({ ...current, loading: null, failed: { page, error: error instanceof ApiError ? error : new ApiError(null, String(error)) } }));
        },
      );
    },
    [api, report],
  );

  useEffect(() => {
    read('first', null, null);
    return () => inFlight.current?.abort();
  }, [read]);

  useEffect(() => {
    if (firstOfOlder.current === null) return;
    list.current?.querySelector<HTMLElement>(`[data-audit-entry="${firstOfOlder.current}"]`)?.focus();
    firstOfOlder.current = null;
  }, [state.entries]);

  const picked = state.person === null ? null : (state.people.find((person) => person.objectId === state.person) ?? null);
  const everyone = state.people.reduce((sum, person) => sum + person.entries, 0);
  const optionText = (person: AuditPerson) => `${personLabel(person)} (${person.entries})`;
  const retry = () => (state.failed?.page === 'older' ? read('older', state.person, state.older) : read('first', state.person, null));

  return (
    <DialogContent className={styles.content}>
      {state.people.length > 1 || state.person !== null ? (
        <Field label="Whose entries">
          <Dropdown
            inlinePopup
            data-audit-person
            value={picked ? optionText(picked) : `Everyone (${everyone})`}
            selectedOptions={[state.person ?? EVERYONE]}
            onOptionSelect={(_event, data) => {
              const person = data.optionValue && data.optionValue !== EVERYONE ? data.optionValue : null;
              if (person !== state.person) read('first', person, null);
            }}
          >
            <Option value={EVERYONE} text={`Everyone (${everyone})`}>{`Everyone (${everyone})`}</Option>
            {state.people.map((person) => (
              <Option key={person.objectId} value={person.objectId} text={optionText(person)}>
                {optionText(person)}
              </Option>
            ))}
          </Dropdown>
        </Field>
      ) : null}
      {state.entries.length > 0 ? (
        <ol className={styles.list} ref={list}>
          {state.entries.map((entry) => (
            <li key={entry.seq} data-audit-entry={entry.seq} tabIndex={-1}>
              <Body1>
                {personLabel(entry.by)} {DONE[entry.action]} “{findingKind(kinds, entry.kind).label}” on {entry.subjectName}
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
      ) : null}
      {state.failed ? (
        <MessageBar intent="error" layout="multiline" data-state="audit-error">
          <MessageBarBody>The triage log could not be read. {state.failed.error.message}</MessageBarBody>
          <MessageBarActions>
            <Button onClick={retry}>Try again</Button>
          </MessageBarActions>
        </MessageBar>
      ) : null}
      <div className={styles.footer} aria-live="polite">
        {state.loading ? (
          <Spinner size="tiny" labelPosition="after" label={state.loading === 'first' ? 'Reading the triage log…' : 'Reading older entries…'} />
        ) : state.failed ? null : (
          <Caption1 className={styles.muted} data-audit-shown={state.entries.length}>
            {state.total === 0
              ? 'No entries.'
              : `${state.entries.length.toLocaleString(format.locale)} of ${state.total.toLocaleString(format.locale)} ${state.total === 1 ? 'entry' : 'entries'}${picked ? ` by ${personLabel(picked)}` : ''}, newest first.`}
          </Caption1>
        )}
        {/* Kept while its page is read (focusable, not pressable), so that a keyboard stays on it. */}
        {state.older !== null && state.loading !== 'first' && state.failed?.page !== 'first' ? (
          <Button appearance="secondary" disabledFocusable={state.loading === 'older'} onClick={() => read('older', state.person, state.older)} data-audit-older>
            Show older
          </Button>
        ) : null}
      </div>
    </DialogContent>
  );
}
