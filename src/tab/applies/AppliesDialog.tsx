import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Badge,
  Body1,
  Button,
  Caption1,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Link,
  MessageBar,
  MessageBarBody,
  Spinner,
  Subtitle2,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import type { BadgeProps } from '@fluentui/react-components';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { AppliesResult } from '../../core/applies/applies-result.js';
import type { AppliesConflictKind, AppliesConflicts, AppliesEntry, AppliesSettingConflict, AppliesVerdict } from '../../core/applies/applies-result.js';
import {
  CONFLICTS_HEADING,
  CONFLICT_KIND_LABELS,
  NOTHING_ASSIGNED,
  SUBJECT_WORDS,
  VERDICT_LABELS,
  appliesHeading,
  conflictsSentence,
  countsSentence,
  isListedConflict,
  policyVerdictWords,
  undecidedReasons,
} from '../../core/applies/words.js';
import type { ReportApi } from '../api/report-api.js';

const useStyles = makeStyles({
  surface: { maxWidth: 'min(900px, 96vw)', width: '100%' },
  // The content scrolls as one, and no part of it shrinks to make room: Fluent's Link inherits its
  // parent's overflow, and a flex item whose overflow is not visible may shrink to nothing (CSS
  // Flexbox, "Automatic Minimum Size of Flex Items"), which hid the device's Intune link whenever
  // the answer was long enough to scroll.
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, '& > *': { flexShrink: 0 } },
  type: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  entry: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    paddingBottom: tokens.spacingVerticalXS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  line: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  // Names and paths are long unbroken words: they wrap anywhere rather than leave the dialog.
  words: { overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3, overflowWrap: 'anywhere' },
  candidates: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

const CONFLICT_BADGE: Readonly<Record<AppliesConflictKind, BadgeProps['color']>> = {
  conflict: 'danger',
  possibleConflict: 'warning',
  duplicate: 'informative',
  merged: 'subtle',
};

const VERDICT_BADGE: Readonly<Record<AppliesVerdict, BadgeProps['color']>> = {
  applies: 'success',
  excluded: 'informative',
  dependsOnFilter: 'warning',
  unknown: 'subtle',
  notForPlatform: 'subtle',
};

/** Where the question `query` stands; what another question got is never shown under this one's title. */
type Phase = ({ phase: 'loading'; since: number } | { phase: 'answered'; result: AppliesResult } | { phase: 'failed'; message: string }) & { query: string | null };

export interface AppliesDialogProps {
  api: ReportApi | null;
  /** What is asked about; null while the dialog is closed. */
  query: string | null;
  /** Ask about something else (a candidate of an ambiguous name). */
  onAsk: (query: string) => void;
  onClose: () => void;
}

/**
 * "What applies" to a device, a user or a group (docs/contract.md, "What applies"), in a dialog:
 * the objects grouped by type with each verdict, its path in words and its Intune admin center
 * link; what could not be decided, gathered by why and never shown as "does not apply"; or why there
 * is no answer, with the candidates of an ambiguous name to pick from.
 */
export function AppliesDialog({ api, query, onAsk, onClose }: AppliesDialogProps) {
  const styles = useStyles();
  const [asked, setState] = useState<Phase>({ phase: 'loading', since: Date.now(), query: null });
  useEffect(() => {
    if (query === null || api === null) return;
    const controller = new AbortController();
    setState({ phase: 'loading', since: Date.now(), query });
    api
      .applies(query, controller.signal)
      .then((result) => setState({ phase: 'answered', result, query }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState({ phase: 'failed', message: error instanceof Error ? error.message : String(error), query });
      });
    return () => controller.abort();
  }, [api, query]);
  // Until the effect above has asked, an earlier question's answer is not this one's.
  const state: Phase = asked.query === query ? asked : { phase: 'loading', since: Date.now(), query };
  const phase = state.phase === 'answered' ? state.result.kind : state.phase;
  const open = query !== null;
  const surface = useRef<HTMLDivElement>(null);
  useFocusReturn(open);
  // The focus stays in the dialog while its content changes: an answer replacing the spinner, or a
  // candidate picked, removes what had the focus, and the browser then gives it to the page's body,
  // where Escape no longer reaches the dialog.
  useEffect(() => {
    if (open && (document.activeElement === null || document.activeElement === document.body)) surface.current?.focus();
  }, [open, phase, query]);
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onClose()} modalType="modal">
      <DialogSurface ref={surface} className={styles.surface} aria-label="What applies" data-applies-dialog data-phase={phase}>
        <DialogBody>
          <DialogTitle>What applies{query !== null ? ` to ${query}` : ''}</DialogTitle>
          <DialogContent className={styles.content}>
            {state.phase === 'loading' ? <Working since={state.since} /> : null}
            {state.phase === 'failed' ? (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody className={styles.words}>{state.message}</MessageBarBody>
              </MessageBar>
            ) : null}
            {state.phase === 'answered' ? <Answer result={state.result} onAsk={onAsk} /> : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onClose}>
              Close
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/**
 * Gives the focus back, when the dialog closes, to what had it when the dialog opened (the search box,
 * the button that asked). Fluent's Dialog does so only for its own DialogTrigger, and this dialog is
 * opened by a form or a pane: without this the focus fell to the page's body, where Enter asks nothing
 * and Escape reaches no dialog.
 */
function useFocusReturn(open: boolean): void {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before the Dialog's own effect moves the focus into the dialog.
  useLayoutEffect(() => {
    if (!open) return;
    const active = document.activeElement;
    opener.current = active instanceof HTMLElement && active !== document.body ? active : null;
  }, [open]);
  useEffect(() => {
    if (open) return;
    const element = opener.current;
    opener.current = null;
    // An opener that has gone since (a pane that closed as it asked) has nothing to take the focus back.
    if (element?.isConnected) element.focus();
  }, [open]);
}

/** The first answer on a large tenant reads every assignment and group (about half a minute): say so, and count the seconds. */
function Working({ since }: { since: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.round((now - since) / 1000));
  return (
    <div role="status" aria-live="polite">
      <Spinner size="small" labelPosition="after" label={`Working it out… ${seconds} s`} />
      <Caption1>
        The first question reads every assignment and the members of every group they name; on a large tenant that takes about half a minute. Later questions answer at once.
      </Caption1>
    </div>
  );
}

function Answer({ result, onAsk }: { result: AppliesResult; onAsk: (query: string) => void }) {
  const styles = useStyles();
  if (result.kind === 'failed' || result.kind === 'notFound') {
    return (
      <MessageBar intent={result.kind === 'failed' ? 'error' : 'warning'} layout="multiline">
        <MessageBarBody className={styles.words}>
          {result.words}
          {result.kind === 'notFound' ? ' Ask with a device name or its Intune device id, a user principal name, or a group name or id.' : ''}
        </MessageBarBody>
      </MessageBar>
    );
  }
  if (result.kind === 'ambiguous') {
    return (
      <>
        <Body1 className={styles.words}>{result.words} Pick one:</Body1>
        <ul className={styles.candidates} aria-label="Candidates">
          {result.candidates.map((candidate) => (
            <li key={`${candidate.kind}-${candidate.id}`}>
              <Button appearance="subtle" onClick={() => onAsk(candidate.id)} data-candidate={candidate.id}>
                {SUBJECT_WORDS[candidate.kind]} {candidate.name} · {candidate.detail}
              </Button>
            </li>
          ))}
        </ul>
        {result.more > 0 ? <Caption1>and {result.more.toLocaleString()} more: ask with a fuller name or an id.</Caption1> : null}
      </>
    );
  }
  const { answer } = result;
  const reasons = undecidedReasons(answer);
  return (
    <>
      <Subtitle2 as="h3" className={styles.words}>
        {appliesHeading(answer.subject)}
      </Subtitle2>
      <Body1 data-applies-counts>{countsSentence(answer.counts)}</Body1>
      {answer.subject.kind === 'device' && answer.subject.link ? (
        <Link href={answer.subject.link} target="_blank" rel="noopener noreferrer">
          Open {answer.subject.name} in the Intune admin center
        </Link>
      ) : null}
      {answer.groups.length === 0 ? <Body1>{NOTHING_ASSIGNED}</Body1> : null}
      {answer.groups.map((group) => {
        const decided = group.entries.filter((entry) => entry.verdict !== 'unknown');
        if (decided.length === 0) return null;
        return (
          <section key={group.typeLabel} className={styles.type} aria-label={group.typeLabel} data-applies-type={group.typeLabel}>
            <Subtitle2 as="h4">
              {group.typeLabel} ({decided.length.toLocaleString()})
            </Subtitle2>
            <ul className={styles.list}>
              {decided.map((entry) => (
                <Entry key={`${entry.kind}-${entry.objectId}`} entry={entry} />
              ))}
            </ul>
          </section>
        );
      })}
      {reasons.length > 0 ? (
        <Accordion collapsible data-applies-undecided={answer.counts.unknown}>
          <AccordionItem value="undecided">
            <AccordionHeader as="h4">
              {VERDICT_LABELS.unknown} ({answer.counts.unknown.toLocaleString()})
            </AccordionHeader>
            <AccordionPanel>
              <Caption1>The app could not tell whether these reach it, for the reasons below. That is not “does not apply”.</Caption1>
              <ul className={styles.list}>
                {reasons.map((reason) => (
                  <li key={reason.words} className={styles.entry} data-applies-reason>
                    <Text className={styles.words} weight="semibold">
                      {reason.entries.length.toLocaleString()} {reason.entries.length === 1 ? 'object' : 'objects'}: {reason.words}
                    </Text>
                    <ul className={styles.list}>
                      {reason.entries.map((entry, index) => (
                        <li key={`${entry.kind}-${entry.objectId}`} className={styles.words}>
                          {entry.link ? (
                            <Link href={entry.link} target="_blank" rel="noopener noreferrer">
                              {entry.name}
                            </Link>
                          ) : (
                            entry.name
                          )}{' '}
                          <Caption1 className={styles.muted}>
                            {entry.typeLabel}
                            {reason.paths?.[index] ? ` · ${reason.paths[index]}` : ''}
                          </Caption1>
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
              </ul>
            </AccordionPanel>
          </AccordionItem>
        </Accordion>
      ) : null}
      <Conflicts conflicts={answer.conflicts} />
      {answer.notes.map((note) => (
        <Caption1 key={note} className={styles.muted}>
          {note}
        </Caption1>
      ))}
    </>
  );
}

/**
 * A device's setting conflicts (docs/contract.md, "What applies"): the conflicts and possible ones
 * listed, each with the value Intune applies and every policy's value, each policy a link; the
 * duplicates and merged settings collapsed below them; or why they were not checked, never "none".
 */
function Conflicts({ conflicts }: { conflicts: AppliesConflicts }) {
  const styles = useStyles();
  if (conflicts.state === 'deviceOnly') return <Caption1 className={styles.muted}>{conflicts.words}</Caption1>;
  const heading = (
    <Subtitle2 as="h4" id="applies-conflicts-heading">
      {CONFLICTS_HEADING}
    </Subtitle2>
  );
  if (conflicts.state === 'unread') {
    return (
      <section className={styles.type} aria-labelledby="applies-conflicts-heading" data-applies-conflicts="unread">
        {heading}
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody className={styles.words}>{conflicts.words}</MessageBarBody>
        </MessageBar>
      </section>
    );
  }
  const shown = conflicts.settings.filter(isListedConflict);
  const folded = conflicts.settings.filter((setting) => setting.kind === 'duplicate' || setting.kind === 'merged');
  return (
    <section className={styles.type} aria-labelledby="applies-conflicts-heading" data-applies-conflicts="checked">
      {heading}
      <Body1 className={styles.words}>{conflictsSentence(conflicts)}</Body1>
      {shown.length > 0 ? (
        <ul className={styles.list} aria-label="Conflicts">
          {shown.map((setting) => (
            <SettingConflict key={setting.settingDefinitionId} setting={setting} />
          ))}
        </ul>
      ) : null}
      {folded.length > 0 ? (
        <Accordion collapsible>
          <AccordionItem value="duplicates">
            <AccordionHeader as="h5">Duplicates and merged settings ({folded.length.toLocaleString()})</AccordionHeader>
            <AccordionPanel>
              <Caption1>Set by more than one policy without a conflict: the same value twice, or a setting Intune merges into one list.</Caption1>
              <ul className={styles.list}>
                {folded.map((setting) => (
                  <SettingConflict key={setting.settingDefinitionId} setting={setting} />
                ))}
              </ul>
            </AccordionPanel>
          </AccordionItem>
        </Accordion>
      ) : null}
      {conflicts.notes.map((note) => (
        <Caption1 key={note} className={styles.muted}>
          {note}
        </Caption1>
      ))}
    </section>
  );
}

function SettingConflict({ setting }: { setting: AppliesSettingConflict }) {
  const styles = useStyles();
  return (
    <li className={styles.entry} data-applies-conflict={setting.kind}>
      <div className={styles.line}>
        <Badge appearance="tint" color={CONFLICT_BADGE[setting.kind]}>
          {CONFLICT_KIND_LABELS[setting.kind]}
          {setting.security ? ', security' : ''}
        </Badge>
        <Text weight="semibold" className={styles.words}>
          {setting.setting}
        </Text>
      </div>
      <Body1 className={styles.words}>Applied: {setting.applied}</Body1>
      <ul className={styles.list}>
        {setting.policies.map((policy) => (
          <li key={policy.objectId} className={styles.words}>
            {policy.link ? (
              <Link href={policy.link} target="_blank" rel="noopener noreferrer">
                {policy.name}
              </Link>
            ) : (
              policy.name
            )}{' '}
            <Caption1 className={styles.muted}>({policyVerdictWords(policy.verdict)})</Caption1>: {policy.value}
          </li>
        ))}
      </ul>
      <Caption1 className={styles.muted}>{setting.words}</Caption1>
    </li>
  );
}

function Entry({ entry }: { entry: AppliesEntry }) {
  const styles = useStyles();
  return (
    <li className={styles.entry} data-applies-entry={entry.verdict}>
      <div className={styles.line}>
        <Badge appearance="tint" color={VERDICT_BADGE[entry.verdict]}>
          {VERDICT_LABELS[entry.verdict]}
        </Badge>
        {entry.link ? (
          <Link href={entry.link} target="_blank" rel="noopener noreferrer" className={styles.words}>
            {entry.name}
          </Link>
        ) : (
          <Text weight="semibold" className={styles.words}>
            {entry.name}
          </Text>
        )}
        {entry.intent ? <Caption1>({entry.intent})</Caption1> : null}
      </div>
      <Body1 className={styles.words}>{entry.words}</Body1>
      {entry.caveats.map((caveat) => (
        <Caption1 key={caveat} className={styles.muted}>
          {caveat}
        </Caption1>
      ))}
    </li>
  );
}
