/**
 * The partition's delete marker and, in operator mode, the next valid delete step behind a
 * typed confirmation: the user types the partition's name, so a click-through cannot drop
 * its metadata. FINISHED drops every segment's metadata of the partition.
 */
import { DialogActions } from '../../components/DialogActions';
import { Dialog } from 'radix-ui';
import { useState, type FormEvent } from 'react';
import type { PartitionDeleteState, PartitionSegments } from '../../../../shared/contract/segments';
import { PARTITION_DELETE_STATE_NAMES } from '../../../../shared/contract/segments';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { formText } from '../../components/form-text';
import { useToasts } from '../../components/Toasts';
import { ACTION_INTO, newUuid, type SelectedPartition } from './segment-words';

interface DeleteProps {
  readonly connectionId: string;
  readonly partition: SelectedPartition;
  readonly marker: PartitionSegments['deleteMarker'];
  /** What the user must type. */
  readonly name: string;
  /** The topic `name` shows, sent with the call: the main process checks the phrase from it. */
  readonly topic: string | null;
  readonly operator: boolean;
}

function isDeleteState(state: string): state is PartitionDeleteState {
  return (PARTITION_DELETE_STATE_NAMES as readonly string[]).includes(state);
}

export function PartitionDeleteControl({
  connectionId,
  partition,
  marker,
  name,
  topic,
  operator,
}: DeleteProps) {
  const current = marker?.state ?? 'NONE';
  const next = useApiQuery(
    'segments.transitions',
    { lifecycle: 'partition-delete', from: current },
    { staleTime: Infinity, enabled: operator },
  );
  const steps = (next.data ?? []).filter(
    (state): state is PartitionDeleteState => isDeleteState(state) && state !== current,
  );
  return (
    <div className="inline">
      <span
        role="status"
        aria-label="Partition delete state"
        className={marker === null ? 'badge ok' : 'badge warn'}
      >
        {marker === null ? 'Not marked for delete' : marker.state}
      </span>
      {operator &&
        steps.map((state) => (
          <ConfirmDeleteStep
            key={state}
            state={state}
            connectionId={connectionId}
            partition={partition}
            name={name}
            topic={topic}
          />
        ))}
    </div>
  );
}

function ConfirmDeleteStep({
  state,
  connectionId,
  partition,
  name,
  topic,
}: {
  state: PartitionDeleteState;
  connectionId: string;
  partition: SelectedPartition;
  name: string;
  topic: string | null;
}) {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [eventId, setEventId] = useState(newUuid);
  const step = useApiMutation('segments.deletePartition', ['segments.list', 'segments.partitions']);
  const push = useToasts((toasts) => toasts.push);
  const openChange = (value: boolean) => {
    if (value) {
      setTyped('');
      setEventId(newUuid());
      step.reset();
    }
    setOpen(value);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = formText(new FormData(event.currentTarget), 'confirm');
    if (typed !== name) return;
    step.mutate(
      {
        connectionId,
        topicId: partition.topicId,
        partition: partition.partition,
        ...(topic === null ? {} : { topic }),
        state,
        eventId,
        confirm: typed,
      },
      {
        onSuccess: (marker) => {
          push({ tone: 'ok', title: `Partition ${name} is ${marker.state}` });
          setOpen(false);
        },
      },
    );
  };
  const title = `${ACTION_INTO[state]} of ${name}`;
  return (
    <Dialog.Root open={open} onOpenChange={openChange}>
      <Dialog.Trigger asChild>
        <button type="button">{ACTION_INTO[state]}</button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby="delete-step-help">
          <Dialog.Title>{title}</Dialog.Title>
          <p id="delete-step-help">
            Moves the partition&apos;s delete marker to <strong>{state}</strong>.
            {state === 'DELETE_PARTITION_FINISHED' &&
              ' Every segment\u2019s metadata of this partition is dropped.'}{' '}
            Type <strong className="mono">{name}</strong> to confirm.
          </p>
          <form onSubmit={submit} className="form" noValidate>
            <label>
              Partition name{' '}
              <input
                name="confirm"
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                autoComplete="off"
                className="mono"
              />
            </label>
            {step.error && (
              <ErrorPanel
                error={step.error}
                onRetry={() => step.variables && step.mutate(step.variables)}
              />
            )}
            <DialogActions
              submitLabel={ACTION_INTO[state]}
              disabled={typed.trim() !== name || step.isPending}
            />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
