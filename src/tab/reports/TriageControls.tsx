import { Badge, Body1, Button, Caption1, Field, Input, MessageBar, MessageBarBody, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import type { Finding } from '../../core/reports/report-model.js';
import { MAX_REASON_LENGTH, latestSnoozeDay, utcDay } from '../../core/triage/triage-book.js';
import type { TriageDecision, TriageRequest } from '../../core/triage/triage-book.js';
import type { ApiError } from '../api/report-api.js';
import { relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';

const useStyles = makeStyles({
  controls: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap', alignItems: 'center' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** A snooze offered by default: a week, time for a fix to roll out. */
const DEFAULT_SNOOZE_DAYS = 7;

export interface TriageControlsProps {
  finding: Finding;
  /** The decision in force for the finding, if any. */
  decision: TriageDecision | undefined;
  canTriage: boolean;
  onChange: (request: TriageRequest) => Promise<ApiError | null>;
  format: FormatContext;
}

/** The day a snooze ends, as people read it: the stored day is UTC, so it is shown as that day. */
export function snoozeDay(until: string, format: FormatContext): string {
  return new Date(`${until}T00:00:00Z`).toLocaleDateString(format.locale, { timeZone: 'UTC', dateStyle: 'medium' });
}

/**
 * Accept (with a reason) or snooze (until a day) one finding, or reopen it; who decided, when and
 * why for one already decided. A user without the Triager role reads the decision and nothing more.
 */
export function TriageControls({ finding, decision, canTriage, onChange, format }: TriageControlsProps) {
  const styles = useStyles();
  const [form, setForm] = useState<'accept' | 'snooze' | null>(null);
  const [reason, setReason] = useState('');
  const today = utcDay(new Date());
  const [until, setUntil] = useState(utcDay(new Date(Date.now() + DEFAULT_SNOOZE_DAYS * 86_400_000)));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // After a change the button pressed is gone: focus moves to what the finding now is, so keyboard
  // users (and Escape, which the pane listens for) stay in the pane.
  const region = useRef<HTMLDivElement>(null);
  const [changed, setChanged] = useState(0);
  useEffect(() => {
    if (changed > 0) region.current?.focus();
  }, [changed]);

  const send = async (request: TriageRequest) => {
    setBusy(true);
    setError(null);
    const failure = await onChange(request);
    setBusy(false);
    if (failure) setError(failure.message);
    else {
      setForm(null);
      setReason('');
      setChanged((count) => count + 1);
    }
  };

  return (
    <div className={styles.controls} data-triage={decision?.state ?? 'open'} ref={region} tabIndex={-1} aria-label="Triage">
      {decision ? (
        <div className={styles.buttons}>
          <Badge appearance="outline" color={decision.state === 'accepted' ? 'informative' : 'subtle'}>
            {decision.state === 'accepted' ? 'Accepted' : `Snoozed until ${snoozeDay(decision.until ?? today, format)}`}
          </Badge>
          <Body1>
            by {decision.by.name || decision.by.username || 'someone'} {relativeTime(Date.parse(decision.at), format)}
            {decision.reason ? `: ${decision.reason}` : ''}
          </Body1>
        </div>
      ) : null}
      {!canTriage ? (
        <Caption1 className={styles.muted}>Read only: accepting or snoozing a finding needs the DeviceHealth.Triager role.</Caption1>
      ) : decision ? (
        <div className={styles.buttons}>
          <Button disabled={busy} onClick={() => void send({ action: 'reopen', fingerprint: finding.fingerprint })}>
            Reopen
          </Button>
        </div>
      ) : form === null ? (
        <div className={styles.buttons}>
          <Button onClick={() => setForm('accept')}>Accept…</Button>
          <Button onClick={() => setForm('snooze')}>Snooze…</Button>
        </div>
      ) : (
        <form
          className={styles.controls}
          aria-label={form === 'accept' ? 'Accept this finding' : 'Snooze this finding'}
          onSubmit={(event) => {
            event.preventDefault();
            void send(form === 'accept' ? { action: 'accept', fingerprint: finding.fingerprint, reason } : { action: 'snooze', fingerprint: finding.fingerprint, until, reason });
          }}
        >
          {form === 'snooze' ? (
            <Field label="Snooze until (the finding is open again the day after)" required>
              <Input type="date" value={until} min={today} max={latestSnoozeDay(new Date())} onChange={(_, data) => setUntil(data.value)} />
            </Field>
          ) : null}
          <Field label={form === 'accept' ? 'Why is this accepted? (kept with your name in the audit list)' : 'Why (optional)'} required={form === 'accept'}>
            <Textarea value={reason} maxLength={MAX_REASON_LENGTH} onChange={(_, data) => setReason(data.value)} resize="vertical" />
          </Field>
          <div className={styles.buttons}>
            <Button appearance="primary" type="submit" disabled={busy || (form === 'accept' && reason.trim() === '')}>
              {form === 'accept' ? 'Accept finding' : 'Snooze finding'}
            </Button>
            <Button disabled={busy} onClick={() => setForm(null)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
      {error ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{error}</MessageBarBody>
        </MessageBar>
      ) : null}
    </div>
  );
}
