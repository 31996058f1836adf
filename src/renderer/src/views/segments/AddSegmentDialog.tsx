/**
 * "Add segment" (operator mode): a form checked with the contract's own schema before it is
 * sent. The segment id and event id are drawn when the dialog opens and kept for its retries,
 * so a resend after a lost reply is recognised as the same event.
 */
import { DialogActions } from '../../components/DialogActions';
import { Dialog } from 'radix-ui';
import { useState, type FormEvent } from 'react';
import { AddSegmentInput, leaderEpochsFromText } from '../../../../shared/contract/segments';
import { useApiMutation } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { formText } from '../../components/form-text';
import { useToasts } from '../../components/Toasts';
import { newUuid, shortId, type SelectedPartition } from './segment-words';

interface AddProps {
  readonly connectionId: string;
  readonly partition: SelectedPartition;
  /** The topic name the partition's metadata records, if any. */
  readonly recordedTopic: string | null;
}

function integerField(form: FormData, field: string): number | string {
  const text = formText(form, field);
  return /^-?\d{1,16}$/.test(text) ? Number(text) : text;
}

/** What one opening of the dialog fixes: the ids its retries reuse, and "now" for the timestamp. */
function freshDraft() {
  return { segmentId: newUuid(), eventId: newUuid(), openedAtMs: Date.now() };
}

export function AddSegmentDialog({ connectionId, partition, recordedTopic }: AddProps) {
  const [open, setOpen] = useState(false);
  const [ids, setIds] = useState(freshDraft);
  const [problem, setProblem] = useState<string | null>(null);
  const add = useApiMutation('segments.add', ['segments.list', 'segments.partitions']);
  const push = useToasts((state) => state.push);

  const openChange = (next: boolean) => {
    if (next) {
      setIds(freshDraft());
      setProblem(null);
      add.reset();
    }
    setOpen(next);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const epochs = leaderEpochsFromText(formText(form, 'epochs'));
    if (epochs === null)
      return setProblem('segmentLeaderEpochs: write epoch:firstOffset pairs, e.g. 0:100,1:150');
    const topic = recordedTopic ?? (formText(form, 'topic') || undefined);
    const parsed = AddSegmentInput.safeParse({
      connectionId,
      topicId: partition.topicId,
      partition: partition.partition,
      topic,
      segmentId: formText(form, 'segmentId'),
      eventId: ids.eventId,
      startOffset: integerField(form, 'startOffset'),
      endOffset: integerField(form, 'endOffset'),
      segmentLeaderEpochs: epochs,
      segmentSizeBytes: integerField(form, 'size'),
      brokerId: integerField(form, 'broker'),
      maxTimestampMs: integerField(form, 'maxTimestamp'),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return setProblem(
        `${issue?.path.map(String).join('.') || 'form'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    setProblem(null);
    add.mutate(parsed.data, {
      onSuccess: (segment) => {
        push({
          tone: 'ok',
          title: `Segment ${shortId(segment.segmentId)} added`,
          description: `Offsets ${segment.startOffset}–${segment.endOffset}, COPY_SEGMENT_STARTED`,
        });
        setOpen(false);
      },
    });
  };

  return (
    <Dialog.Root open={open} onOpenChange={openChange}>
      <Dialog.Trigger asChild>
        <button type="button" className="primary">
          Add segment
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby="add-segment-help">
          <Dialog.Title>Add segment</Dialog.Title>
          <p id="add-segment-help" className="muted small">
            Records a new segment copy in state COPY_SEGMENT_STARTED.
          </p>
          <form onSubmit={submit} className="form" noValidate>
            {recordedTopic === null && (
              <label>
                Topic name{' '}
                <input name="topic" defaultValue={partition.topic ?? ''} autoComplete="off" />
              </label>
            )}
            <label>
              Segment id{' '}
              <input
                name="segmentId"
                defaultValue={ids.segmentId}
                className="mono"
                autoComplete="off"
              />
            </label>
            <label>
              Start offset <input name="startOffset" inputMode="numeric" autoComplete="off" />
            </label>
            <label>
              End offset <input name="endOffset" inputMode="numeric" autoComplete="off" />
            </label>
            <label>
              Leader epochs{' '}
              <input
                name="epochs"
                placeholder="0:100,1:150 (epoch:first offset)"
                className="mono"
                autoComplete="off"
              />
            </label>
            <label>
              Size in bytes{' '}
              <input name="size" inputMode="numeric" defaultValue="0" autoComplete="off" />
            </label>
            <label>
              Broker <input name="broker" inputMode="numeric" defaultValue="0" autoComplete="off" />
            </label>
            <label>
              Max timestamp (ms){' '}
              <input
                name="maxTimestamp"
                inputMode="numeric"
                defaultValue={String(ids.openedAtMs)}
                autoComplete="off"
              />
            </label>
            {problem && (
              <p role="alert" className="form-problem">
                {problem}
              </p>
            )}
            {add.error && (
              <ErrorPanel
                error={add.error}
                onRetry={() => add.variables && add.mutate(add.variables)}
              />
            )}
            <DialogActions submitLabel={'Save segment'} disabled={add.isPending} />
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
