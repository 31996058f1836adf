/**
 * The title bar's link actions: "Copy link" puts the address of the place shown on the
 * clipboard (the hash names the view, the connection as a colleague's Cairn finds it, and what
 * is selected; never the access token), and "Open link" opens a link pasted from anyone's
 * Cairn - only its hash is used, so a link from another port, another install or the desktop
 * app opens here (the desktop app has no address bar).
 */
import { formText } from '../components/form-text';
import { useToasts } from '../components/Toasts';
import { FormDialog } from '../views/namespaces/FormDialog';

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
  return (
    <FormDialog
      title="Open a link"
      trigger={
        <button type="button" title="Open a link copied from Cairn">
          Open link
        </button>
      }
      submitLabel="Open"
      pending={false}
      onSubmit={(form) => {
        const hash = hashOfLink(formText(form, 'link'));
        if (hash === null)
          return Promise.resolve({
            text: 'link: a Cairn link has a place after "#/" (copy it with "Copy link")',
          });
        // A hash change: hash-sync opens the place as a new history step.
        window.location.hash = hash;
        return Promise.resolve(null);
      }}
    >
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
    </FormDialog>
  );
}
