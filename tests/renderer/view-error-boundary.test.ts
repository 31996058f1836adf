// @vitest-environment jsdom
/**
 * Issue #47 item 4: a view that throws while rendering (a time a Date cannot hold threw
 * `RangeError: Invalid time value` and blanked the whole console) shows its error in its
 * place; what is around it stays.
 */
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ViewErrorBoundary } from '../../src/renderer/src/components/ViewErrorBoundary';

function Broken(): never {
  throw new RangeError(`Invalid time value: ${new Date(1e300).getTime()}`);
}

afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('ViewErrorBoundary', () => {
  it('shows the error of a view that throws, and keeps the shell', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    await act(async () => {
      root.render(
        createElement(
          'div',
          null,
          createElement('nav', null, 'shell'),
          createElement(ViewErrorBoundary, { view: 'overview', children: createElement(Broken) }),
        ),
      );
    });
    expect(host.querySelector('nav')?.textContent).toBe('shell');
    const alert = host.querySelector('[role="alert"]');
    expect(alert?.textContent).toContain('RangeError');
    expect(alert?.textContent).toContain('Invalid time value');
    await act(async () => root.unmount());
  });
});
