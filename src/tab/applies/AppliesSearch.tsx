import { Button, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { LONGEST_APPLIES_QUERY } from '../../core/applies/words.js';
import type { ReportApi } from '../api/report-api.js';
import { AppliesDialog } from './AppliesDialog.js';

const useStyles = makeStyles({
  form: { display: 'flex', alignItems: 'flex-end', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  field: { flexGrow: 1, minWidth: 'min(280px, 100%)', maxWidth: '560px' },
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
      <form className={styles.form} onSubmit={submit} role="search" aria-label="What applies">
        <Field className={styles.field} label="What applies to a device, user or group" hint="A device name, a user principal name (alice@contoso.com) or a group name">
          <Input value={text} maxLength={LONGEST_APPLIES_QUERY} onChange={(_, data) => setText(data.value)} placeholder="CONTOSO-0040" />
        </Field>
        <Button type="submit" appearance="primary" disabled={text.trim() === ''}>
          Show what applies
        </Button>
      </form>
      <AppliesDialog api={api} query={asked} onAsk={setAsked} onClose={() => setAsked(null)} />
    </>
  );
}
