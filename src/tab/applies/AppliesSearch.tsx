import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { LONGEST_APPLIES_QUERY } from '../../core/applies/words.js';
import type { ReportApi } from '../api/report-api.js';
import { AppliesDialog } from './AppliesDialog.js';

const useStyles = makeStyles({
  field: { maxWidth: '720px' },
  // The button stands beside the box, inside the field, so that the field's hint runs under both and
  // the button lines up with the box, not with the hint.
  control: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  input: { flexGrow: 1, minWidth: 'min(280px, 100%)' },
});

/**
 * The overview's search box: "What applies to a device, user or group", answered in a dialog. A
 * question asked while the app is still signing in is kept: the dialog opens at once and asks when
 * the app has started, since a disabled button would make Enter do nothing, without a word.
 */
export function AppliesSearch({ api }: { api: ReportApi | null }) {
  const styles = useStyles();
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = text.trim();
    if (query !== '') setAsked(query);
  };
  return (
    <>
      <form onSubmit={submit} role="search" aria-label="What applies">
        <Field className={styles.field} label="What applies to a device, user or group" hint="A device name, a user principal name (alice@contoso.com) or a group name">
          {(control) => (
            <div className={styles.control}>
              <Input {...control} className={styles.input} value={text} maxLength={LONGEST_APPLIES_QUERY} onChange={(_, data) => setText(data.value)} placeholder="CONTOSO-0040" />
              <Button type="submit" appearance="primary" disabled={text.trim() === ''}>
                Show what applies
              </Button>
            </div>
          )}
        </Field>
      </form>
      <AppliesDialog api={api} query={asked} onAsk={setAsked} onClose={() => setAsked(null)} />
    </>
  );
}
