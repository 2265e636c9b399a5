import { Body1, Button, Caption1, MessageBar, MessageBarBody, Subtitle2 } from '@fluentui/react-components';
import { useState } from 'react';
import type { ApiError } from '../api/report-api.js';

export interface BaselineControlsProps {
  policyId: string;
  /** Whether the policy is shown in report 8, where its approval can be withdrawn. */
  withdrawable: boolean;
  canApprove: boolean;
  onChange: (action: 'approve' | 'withdraw', policyId: string) => Promise<ApiError | null>;
  className?: string;
}

/**
 * A policy's place in report 8's approved baseline (docs/contract.md, "The approved baseline"):
 * approve it as it is now (which also accepts any drift), or withdraw it. Only a Triager may; anyone
 * else reads why not. What happened is said in a live region, so a screen reader hears it.
 */
export function BaselineControls({ policyId, withdrawable, canApprove, onChange, className }: BaselineControlsProps) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ intent: 'success' | 'error'; text: string } | null>(null);
  const send = async (action: 'approve' | 'withdraw') => {
    setBusy(true);
    setOutcome(null);
    const failure = await onChange(action, policyId);
    setBusy(false);
    setOutcome(
      failure
        ? { intent: 'error', text: failure.message }
        : {
            intent: 'success',
            text:
              action === 'approve'
                ? 'Approved as it is now. Drift from the approved baseline compares it with this from its next load.'
                : 'Withdrawn from the approved baseline. Drift from the approved baseline no longer compares it.',
          },
    );
  };
  return (
    <section className={className} aria-label="Approved baseline" data-baseline-controls>
      <Subtitle2 as="h3">Approved baseline</Subtitle2>
      <Body1>Approve this policy&apos;s settings and assignments as they are now: Drift from the approved baseline then lists every change to them.</Body1>
      {canApprove ? (
        <div>
          <Button appearance="primary" disabled={busy} onClick={() => void send('approve')} data-baseline-approve>
            Approve as it is now
          </Button>{' '}
          {withdrawable ? (
            <Button disabled={busy} onClick={() => void send('withdraw')} data-baseline-withdraw>
              Withdraw approval
            </Button>
          ) : null}
        </div>
      ) : (
        <Caption1>Approving needs the Triager role.</Caption1>
      )}
      <div aria-live="polite">
        {outcome ? (
          <MessageBar intent={outcome.intent} data-baseline-outcome={outcome.intent}>
            <MessageBarBody>{outcome.text}</MessageBarBody>
          </MessageBar>
        ) : null}
      </div>
    </section>
  );
}
