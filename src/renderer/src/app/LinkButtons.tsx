/**
 * The title bar's link actions: "Copy link" puts the address of the place shown on the
 * clipboard (the hash names the view, the connection as a colleague's Cairn finds it, and what
 * is selected; never the access token), and "Open link" opens a link pasted from anyone's
 * Cairn - only its hash is used, so a link from another port, another install or the desktop
 * app opens here (the desktop app has no address bar).
 */
import { Dialog } from 'radix-ui';
import { useState, type FormEvent } from 'react';
import { DialogActions } from '../components/DialogActions';
import { formText } from '../components/form-text';
import { useToasts } from '../components/Toasts';

export function CopyLinkButton() {
  const push = useToasts((state) => state.push);
  const copy = () => {
    const link = window.location.href;
    navigator.clipboard.writeText(link).then(
      () => push({ tone: 'ok', title: 'Link copied', description: link }),
      () => push({ tone: 'error', title: 'Could not copy the link', description: link }),
    );
  };
  return (
    <button type="button" onClick={copy} title="Copy a link to this place">
      Copy link
    </button>
  );
}

/** The hash of a Cairn link (`#/view?...`), or null when the text holds none. */
export function hashOfLink(text: string): string | null {
  const at = text.indexOf('#/');
  return at < 0 ? null : text.slice(at).trim();
}

export function OpenLinkDialog() {
  const [open, setOpen] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const hash = hashOfLink(formText(new FormData(event.currentTarget), 'link'));
    if (hash === null) {
      setProblem('link: a Cairn link has a place after "#/" (copy it with "Copy link")');
      return;
    }
    setProblem(null);
    setOpen(false);
    // A hash change: hash-sync opens the place as a new history step.
    window.location.hash = hash;
  };
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" title="Open a link copied from Cairn">
          Open link
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>Open a link</Dialog.Title>
          <form onSubmit={submit} className="form" noValidate>
            <label>
              Link{' '}
              <input
                name="link"
                className="mono"
                placeholder="http://127.0.0.1:5713/#/replay?prefix=…"
                autoComplete="off"
                required
              />
            </label>
            {problem && (
              <p role="alert" className="form-problem">
                {problem}
              </p>
            )}
            <DialogActions submitLabel="Open" disabled={false} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
