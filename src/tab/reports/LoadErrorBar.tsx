import { MessageBar, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';

/**
 * Why a report, or a window of its rows, could not be shown: a load error with Microsoft Graph's
 * status (`state` `load-error`), or the app's API failing to answer (`api-error`). Never an empty table.
 */
export function LoadErrorBar({ state, status, message }: { state: 'load-error' | 'api-error'; status?: number | null | undefined; message: string | undefined }) {
  return (
    <MessageBar intent="error" layout="multiline" data-state={state}>
      <MessageBarBody>
        <MessageBarTitle>{status ? `Could not load this report: Microsoft Graph answered HTTP ${status}` : 'Could not load this report'}</MessageBarTitle>
        {message}
      </MessageBarBody>
    </MessageBar>
  );
}
