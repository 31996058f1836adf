/**
 * A confirmation the user must type, not click through: the action stays disabled until the
 * typed text equals `phrase`. Every destructive or fencing action of the console uses it.
 * Open state is the dialog's own unless the owner passes `open`.
 */
import { DialogActions } from './DialogActions';
import { Dialog } from 'radix-ui';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../../../shared/api-error';
import { ErrorPanel } from './ErrorPanel';
import { OfPrefix } from './PrefixName';

export interface TypedConfirmDialogProps {
  readonly title: string;
  /** The WAL prefix the action acts on: the title then reads "`title` of `prefix`". */
  readonly prefix?: string;
  /** What the user types to confirm. */
  readonly phrase: string;
  readonly actionLabel: string;
  /** Opens the dialog; absent when the owner opens it through `open`. */
  readonly trigger?: ReactNode;
  readonly open?: boolean;
  readonly onOpenChange?: (open: boolean) => void;
  readonly children?: ReactNode;
  readonly pending: boolean;
  readonly error: ApiError | null;
  /**
   * Runs the action with what the user typed (send it as the call's `confirm`: the main
   * process checks it too); resolves true when it succeeded (the dialog then closes).
   */
  readonly onConfirm: (typed: string) => Promise<boolean>;
  /** How a refusal is shown; `close` shuts this dialog (to open another one). Default: ErrorPanel. */
  readonly renderError?: (error: ApiError, close: () => void) => ReactNode;
}

export function TypedConfirmDialog(props: TypedConfirmDialogProps) {
  const {
    title,
    prefix,
    phrase,
    actionLabel,
    trigger,
    children,
    pending,
    error,
    onConfirm,
    onOpenChange,
    renderError,
  } = props;
  const [ownOpen, setOwnOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const open = props.open ?? ownOpen;
  const change = (next: boolean) => {
    setOwnOpen(next);
    if (!next) setTyped('');
    onOpenChange?.(next);
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (typed === phrase && (await onConfirm(typed))) change(false);
  };
  return (
    <Dialog.Root open={open} onOpenChange={change}>
      {trigger !== undefined && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>
            {prefix === undefined ? title : <OfPrefix what={title} prefix={prefix} />}
          </Dialog.Title>
          <form className="form" onSubmit={(event) => void submit(event)} noValidate>
            {children}
            <label>
              <span>
                Type <strong className="mono">{phrase}</strong> to confirm
              </span>
              <input
                aria-label={`Type ${phrase} to confirm`}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                className="mono"
              />
            </label>
            {error &&
              (renderError ? (
                renderError(error, () => change(false))
              ) : (
                <ErrorPanel error={error} />
              ))}
            <DialogActions submitLabel={actionLabel} disabled={typed !== phrase || pending} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
