import { Button, MessageBar, MessageBarActions, MessageBarBody, MessageBarTitle } from '@fluentui/react-components';
import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';

interface FaultBoundaryState {
  fault: Error | null;
  /** Bumped by Reload, so the view below is built afresh and loads its data again. */
  generation: number;
}

/** Chromium reports a benign layout notice as a window error; it is not a fault of ours. */
const BENIGN_WINDOW_ERRORS = [/ResizeObserver loop/];

/**
 * The specification's application-fault state: when a view throws while rendering, or a bug
 * surfaces as an uncaught error or rejection while it is on screen, the view is replaced by a
 * banner saying the application may stop responding until reloaded, with a Reload control that
 * rebuilds the view.
 */
export class FaultBoundary extends Component<{ children: ReactNode }, FaultBoundaryState> {
  override state: FaultBoundaryState = { fault: null, generation: 0 };

  static getDerivedStateFromError(error: unknown): Partial<FaultBoundaryState> {
    return { fault: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('Report view fault:', error, info.componentStack);
  }

  override componentDidMount(): void {
    window.addEventListener('error', this.onWindowError);
    window.addEventListener('unhandledrejection', this.onUnhandledRejection);
  }

  override componentWillUnmount(): void {
    window.removeEventListener('error', this.onWindowError);
    window.removeEventListener('unhandledrejection', this.onUnhandledRejection);
  }

  private readonly onWindowError = (event: ErrorEvent) => {
    if (BENIGN_WINDOW_ERRORS.some((pattern) => pattern.test(event.message))) return;
    this.setState({ fault: event.error instanceof Error ? event.error : new Error(event.message) });
  };

  private readonly onUnhandledRejection = (event: PromiseRejectionEvent) => {
    console.error('Unhandled rejection:', event.reason);
    this.setState({ fault: event.reason instanceof Error ? event.reason : new Error(String(event.reason)) });
  };

  private readonly reload = () => {
    this.setState((previous) => ({ fault: null, generation: previous.generation + 1 }));
  };

  override render() {
    if (this.state.fault) {
      return (
        <MessageBar intent="error" layout="multiline" role="alert" data-state="fault">
          <MessageBarBody>
            <MessageBarTitle>Something went wrong</MessageBarTitle>
            The application may stop responding until it is reloaded.
          </MessageBarBody>
          <MessageBarActions>
            <Button appearance="primary" onClick={this.reload}>
              Reload
            </Button>
          </MessageBarActions>
        </MessageBar>
      );
    }
    return <div key={this.state.generation}>{this.props.children}</div>;
  }
}
