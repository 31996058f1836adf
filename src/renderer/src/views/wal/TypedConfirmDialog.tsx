/**
 * A confirmation the user must type, not click through: the action stays disabled until the
 * typed text equals `phrase`. The WAL views' take-over, obsolete and region-table actions use it.
 */
import { Dialog } from 'radix-ui';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import { ErrorPanel } from '../../components/ErrorPanel';

export interface TypedConfirmDialogProps {
  readonly title: string;
  readonly phrase: string;
  readonly actionLabel: string;
  readonly trigger: ReactNode;
  readonly children?: ReactNode;
  readonly pending: boolean;
  readonly error: ApiError | null;
  /** Runs the action; resolves true when it succeeded (the dialog then closes). */
  readonly onConfirm: () => Promise<boolean>;
  readonly onOpenChange?: (open: boolean) => void;
}

export function TypedConfirmDialog({
  title,
  phrase,
  actionLabel,
  trigger,
  children,
  pending,
  error,
  onConfirm,
  onOpenChange,
}: TypedConfirmDialogProps) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const change = (next: boolean) => {
    setOpen(next);
    if (!next) setTyped('');
    onOpenChange?.(next);
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (typed === phrase && (await onConfirm())) change(false);
  };
  return (
    <Dialog.Root open={open} onOpenChange={change}>
      <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby={undefined}>
          <Dialog.Title>{title}</Dialog.Title>
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
            {error && <ErrorPanel error={error} />}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button">Cancel</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={typed !== phrase || pending}>
                {actionLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
