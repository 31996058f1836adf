/**
 * A confirmation the user must type, not click through: the action stays disabled until the
 * typed text equals `phrase`. Used for deprecating a namespace and taking a shard.
 */
import { Dialog } from 'radix-ui';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { ApiError } from '../../../../shared/api-error';
import { NamespaceErrorNotice } from './NamespaceErrorNotice';

export interface TypedConfirmDialogProps {
  readonly title: string;
  /** What the user types to confirm. */
  readonly phrase: string;
  readonly actionLabel: string;
  /** Opens the dialog; absent when the owner opens it (`open`). */
  readonly trigger?: ReactNode;
  readonly open: boolean;
  readonly onOpenChange: (open: boolean) => void;
  readonly children: ReactNode;
  readonly pending: boolean;
  readonly error: ApiError | null;
  /** Runs the action; resolves true when it succeeded (the dialog then closes). */
  readonly onConfirm: () => Promise<boolean>;
  readonly onTakeOwnership?: (shard: number) => void;
}

export function TypedConfirmDialog(props: TypedConfirmDialogProps) {
  const { title, phrase, actionLabel, trigger, open, onOpenChange, children, pending, error, onConfirm, onTakeOwnership } = props;
  const [typed, setTyped] = useState('');
  const matches = typed === phrase;

  const change = (next: boolean) => {
    onOpenChange(next);
    if (!next) setTyped('');
  };
  // One dialog at a time: this one closes before the take-ownership one opens.
  const takeOwnership =
    onTakeOwnership &&
    ((shard: number) => {
      change(false);
      onTakeOwnership(shard);
    });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (matches && (await onConfirm())) change(false);
  };

  return (
    <Dialog.Root open={open} onOpenChange={change}>
      {trigger !== undefined && <Dialog.Trigger asChild>{trigger}</Dialog.Trigger>}
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
              <input aria-label={`Type ${phrase} to confirm`} value={typed} onChange={(event) => setTyped(event.target.value)} autoComplete="off" className="mono" />
            </label>
            {error && <NamespaceErrorNotice error={error} onTakeOwnership={takeOwnership} />}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button">Cancel</button>
              </Dialog.Close>
              <button type="submit" className="primary" disabled={!matches || pending}>
                {actionLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
