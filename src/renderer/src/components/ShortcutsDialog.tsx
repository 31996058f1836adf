/** The keyboard shortcuts, listed in a dialog opened by the title bar's "?" button or Shift+?. */
import { Dialog } from 'radix-ui';
import { useEffect, useState } from 'react';
import { VIEWS } from '../state/ui-store';

function isTyping(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

export function ShortcutsDialog() {
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === '?' && !isTyping(event.target)) {
        event.preventDefault();
        setOpen(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
          ?
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>Keyboard shortcuts</Dialog.Title>
          <table className="table" aria-label="Shortcuts">
            <tbody>
              {VIEWS.map((view) => (
                <tr key={view.id}>
                  <td className="mono">Ctrl+{view.shortcut}</td>
                  <td>{view.label}</td>
                </tr>
              ))}
              <tr>
                <td className="mono">?</td>
                <td>This list</td>
              </tr>
              <tr>
                <td className="mono">Esc</td>
                <td>Close a dialog</td>
              </tr>
            </tbody>
          </table>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button">Close</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
