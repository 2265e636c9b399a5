import {
  Body1,
  Caption1,
  Field,
  Input,
  Link,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Select,
  Spinner,
  Subtitle2,
  Text,
  Title2,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import type { Change, ChangeFeedResult } from '../../core/changes/change-feed.js';
import { countOf } from '../../core/text/words.js';
import type { ReportApi } from '../api/report-api.js';
import { relativeTime } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';

const useStyles = makeStyles({
  view: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  filters: { display: 'flex', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', alignItems: 'flex-end' },
  list: { listStyleType: 'none', margin: 0, padding: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  change: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXXS,
    paddingBottom: tokens.spacingVerticalS,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  details: { margin: 0, paddingLeft: tokens.spacingHorizontalXL },
  muted: { color: tokens.colorNeutralForeground3 },
  // Names and values from the tenant can be long unbroken words.
  text: { overflowWrap: 'anywhere' },
});

/** Changes drawn at most: a month of a large tenant holds thousands; narrowing by object or person shows the rest. */
export const CHANGES_SHOWN = 300;
/** How long typing pauses before the feed is asked for again. */
const TYPING_PAUSE_MS = 400;

const WINDOWS = [
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '31d', label: 'Last 31 days' },
] as const;

export interface ChangesViewProps {
  /** Null while the application is still starting. */
  api: ReportApi | null;
  format: FormatContext;
}

type Answer = { phase: 'loading' } | { phase: 'loaded'; result: ChangeFeedResult } | { phase: 'failed'; message: string };

/**
 * What changed in the tenant's device configuration (docs/contract.md, "The change feed"): each
 * change newest first, who made it and when, each setting before and after by its name, and a link
 * to the object in Intune; narrowed by time, object and person, each asked of the server.
 */
export function ChangesView({ api, format }: ChangesViewProps) {
  const styles = useStyles();
  const [since, setSince] = useState<string>('7d');
  const [object, setObject] = useState('');
  const [person, setPerson] = useState('');
  const [query, setQuery] = useState({ object: '', person: '' });
  const [answer, setAnswer] = useState<Answer>({ phase: 'loading' });

  // The words are asked for once typing pauses, not at each key.
  useEffect(() => {
    const timer = setTimeout(() => setQuery({ object: object.trim(), person: person.trim() }), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [object, person]);

  useEffect(() => {
    if (!api) return undefined;
    const controller = new AbortController();
    setAnswer({ phase: 'loading' });
    api.changes({ since, ...query }, controller.signal).then(
      (result) => setAnswer({ phase: 'loaded', result }),
      (error: unknown) => {
        if (!controller.signal.aborted) setAnswer({ phase: 'failed', message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => controller.abort();
  }, [api, since, query]);

  const result = answer.phase === 'loaded' ? answer.result : null;
  return (
    <section className={styles.view} aria-labelledby="changes-title" data-changes-view>
      <Title2 as="h2" id="changes-title">
        What changed
      </Title2>
      <Body1>
        Each change to policies, profiles, compliance policies, apps&apos; assignments, scripts and filters, from Intune&apos;s audit log: who made it, when, and each setting
        before and after.
      </Body1>
      <div className={styles.filters}>
        <Field label="Time">
          <Select value={since} onChange={(_, data) => setSince(data.value)} data-changes-since>
            {WINDOWS.map((window) => (
              <option key={window.value} value={window.value}>
                {window.label}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Object">
          <Input value={object} maxLength={200} placeholder="A policy, app or script" onChange={(_, data) => setObject(data.value)} data-changes-object />
        </Field>
        <Field label="Changed by">
          <Input value={person} maxLength={200} placeholder="A person or an app" onChange={(_, data) => setPerson(data.value)} data-changes-person />
        </Field>
      </div>
      <div aria-live="polite">
        {answer.phase === 'loading' ? <Spinner size="small" label="Reading Intune's audit log…" labelPosition="after" data-state="loading" /> : null}
        {answer.phase === 'failed' ? (
          <MessageBar intent="error" layout="multiline" data-state="failed">
            <MessageBarBody>
              <MessageBarTitle>The changes could not be read</MessageBarTitle>
              {answer.message}
            </MessageBarBody>
          </MessageBar>
        ) : null}
        {result?.state === 'load-error' ? (
          <MessageBar intent="error" layout="multiline" data-state="load-error">
            <MessageBarBody>
              <MessageBarTitle>Load error{result.error.status === null ? '' : ` (HTTP ${result.error.status})`}</MessageBarTitle>
              {result.error.message}
            </MessageBarBody>
          </MessageBar>
        ) : null}
        {result?.state === 'loaded' ? (
          <Caption1 data-changes-count={result.feed.changes.length}>
            {result.feed.changes.length === 0
              ? 'No device configuration changed in this time.'
              : result.feed.changes.length > CHANGES_SHOWN
                ? `The newest ${CHANGES_SHOWN.toLocaleString(format.locale)} of ${countOf(result.feed.changes.length, 'change')}: narrow by object or person to see the rest.`
                : `${countOf(result.feed.changes.length, 'change')}, newest first.`}
          </Caption1>
        ) : null}
      </div>
      {result?.state === 'loaded' ? (
        <>
          <ul className={styles.list} aria-label="Changes">
            {result.feed.changes.slice(0, CHANGES_SHOWN).map((change) => (
              <ChangeItem key={change.id} change={change} format={format} />
            ))}
          </ul>
          {result.notes.map((note) => (
            <Caption1 key={note} className={styles.muted}>
              {note}
            </Caption1>
          ))}
        </>
      ) : null}
    </section>
  );
}

function ChangeItem({ change, format }: { change: Change; format: FormatContext }) {
  const styles = useStyles();
  const at = Date.parse(change.at);
  const value = (text: string | null) => (text === null || text === '' ? '(none)' : text);
  return (
    <li className={styles.change} data-change={change.action}>
      <Subtitle2 as="h3" className={styles.text}>
        {change.actionLabel}: {change.object.name ?? change.object.id}
      </Subtitle2>
      <Caption1 className={styles.text}>
        {change.object.kindLabel} · {change.by} · <time dateTime={change.at}>{relativeTime(at, format)}</time> (
        {new Date(at).toLocaleString(format.locale, { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' })} UTC)
      </Caption1>
      {change.details.length > 0 ? (
        <ul className={styles.details}>
          {change.details.map((detail, index) => (
            <li key={`${detail.name} ${index}`}>
              <Text className={styles.text}>
                {detail.name}: {value(detail.before)} → {value(detail.after)}
                {detail.note ? <span className={styles.muted}> ({detail.note})</span> : null}
              </Text>
            </li>
          ))}
          {change.detailsLeftOut > 0 ? <li className={styles.muted}>and {countOf(change.detailsLeftOut, 'more property', 'more properties')} the log listed</li> : null}
        </ul>
      ) : null}
      <Link href={change.object.link} target="_blank" rel="noopener noreferrer" className={styles.text}>
        Open {change.object.name ?? 'it'} in the Intune admin center
      </Link>
    </li>
  );
}
