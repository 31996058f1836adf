/**
 * One view's error boundary: a view that throws while rendering (a value no check foresaw - a
 * time a Date cannot hold blanked the whole console) shows the error in its place, and the
 * shell - title bar, navigation, status bar - stays, so another view is one click away. Keyed
 * by the view, so showing another view starts it afresh. (Written without JSX: the node-side
 * type check, which the tests share, does not compile JSX.)
 */
import { Component, createElement, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  readonly view: string;
  readonly children: ReactNode;
}

interface State {
  readonly error: Error | null;
}

export class ViewErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(`the ${this.props.view} view failed`, error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (error === null) return this.props.children;
    return createElement(
      'section',
      { 'aria-label': `${this.props.view} failed` },
      createElement('h2', null, 'This view failed'),
      // ErrorPanel's markup: its classes style it the same.
      createElement(
        'div',
        { role: 'alert', className: 'error-panel' },
        createElement('div', { className: 'error-code' }, error.name),
        createElement('div', { className: 'error-message' }, error.message),
        createElement(
          'button',
          { type: 'button', onClick: () => this.setState({ error: null }) },
          'Retry',
        ),
      ),
    );
  }
}
