/**
 * Tiered segments: the topic-partitions of the connection, and per partition its segments as
 * a table and an offset timeline, the caught-up badge, lookups by (epoch, offset) and highest
 * offset per epoch, and the partition's delete state. Mutation controls exist only in operator
 * mode (the main process refuses them anyway). Refreshes when any window or process publishes.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { PartitionInput } from '../../../shared/contract/segments';
import { api } from '../api/client';
import { useApiQuery } from '../api/hooks';
import { ErrorPanel } from '../components/ErrorPanel';
import { formText } from '../components/form-text';
import { useUiStore } from '../state/ui-store';
import { AddSegmentDialog } from './segments/AddSegmentDialog';
import { FindSegmentPanel, HighestOffsetPanel } from './segments/LookupPanels';
import { OffsetTimeline } from './segments/OffsetTimeline';
import { PartitionDeleteControl } from './segments/PartitionDeleteControl';
import { SegmentTable } from './segments/SegmentTable';
import { partitionName, type SelectedPartition } from './segments/segment-words';
import './segments/segments.css';

export function SegmentsView() {
  const connectionId = useUiStore((state) => state.connectionId);
  const connections = useApiQuery('connections.list', {});
  const operator =
    connections.data?.find((connection) => connection.id === connectionId)?.operator ?? false;
  // The selection is part of the place (URL); a connection switch clears it.
  const selected = useUiStore((state) => state.partition);
  const select = useUiStore((state) => state.select);
  const setSelected = (partition: SelectedPartition) => select({ partition });
  useSegmentEvents(connectionId);

  return (
    <section aria-labelledby="segments-title" className="view">
      <header className="view-header">
        <h1 id="segments-title">Tiered segments</h1>
      </header>
      <div className="segments-layout">
        <PartitionPicker connectionId={connectionId} selected={selected} onSelect={setSelected} />
        {selected === null ? (
          <p className="muted">Pick a topic-partition, or open one by its topic id.</p>
        ) : (
          <PartitionDetail
            key={`${selected.topicId}-${selected.partition}`}
            connectionId={connectionId}
            partition={selected}
            operator={operator}
          />
        )}
      </div>
    </section>
  );
}

/** Another window, the CLI's peer console or this one published: refresh what is shown. */
function useSegmentEvents(connectionId: string): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type !== 'segments.changed' || event.connectionId !== connectionId) return;
        void queryClient.invalidateQueries({ queryKey: ['segments.list'] });
        void queryClient.invalidateQueries({ queryKey: ['segments.partitions'] });
      }),
    [queryClient, connectionId],
  );
}

function PartitionPicker({
  connectionId,
  selected,
  onSelect,
}: {
  connectionId: string;
  selected: SelectedPartition | null;
  onSelect: (partition: SelectedPartition) => void;
}) {
  const partitions = useApiQuery('segments.partitions', { connectionId });
  const [problem, setProblem] = useState<string | null>(null);
  const open = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const partition = formText(form, 'partition');
    const parsed = PartitionInput.safeParse({
      connectionId,
      topicId: formText(form, 'topicId'),
      partition: /^\d{1,10}$/.test(partition) ? Number(partition) : partition,
      topic: formText(form, 'topic') || undefined,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return setProblem(
        `${issue?.path.map(String).join('.') || 'form'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    setProblem(null);
    onSelect({
      topicId: parsed.data.topicId,
      partition: parsed.data.partition,
      ...(parsed.data.topic === undefined ? {} : { topic: parsed.data.topic }),
    });
  };
  return (
    <aside className="segments-picker" aria-label="Topic-partitions">
      {partitions.error && (
        <ErrorPanel error={partitions.error} onRetry={() => void partitions.refetch()} />
      )}
      <ul aria-label="Partitions with segment metadata">
        {partitions.data?.length === 0 && (
          <li className="muted small">
            No partition holds segment metadata yet: a broker publishes it, or add a segment with{' '}
            <span className="mono">cairn segments add</span> (or open a partition below, in operator
            mode).
          </li>
        )}
        {partitions.data?.map((partition) => {
          const current =
            selected?.topicId === partition.topicId && selected.partition === partition.partition;
          return (
            <li key={`${partition.topicId}-${partition.partition}`}>
              <button
                type="button"
                aria-current={current ? 'true' : undefined}
                title={`${partition.topicId}-${partition.partition}`}
                onClick={() =>
                  onSelect({
                    topicId: partition.topicId,
                    partition: partition.partition,
                    ...(partition.topic === null ? {} : { topic: partition.topic }),
                  })
                }
              >
                <span className="mono small">{partitionName(partition)}</span>
              </button>
              {partition.damage && (
                <p className="form-problem small" role="alert">
                  Damaged: <span className="mono">{partition.damage.key}</span>:{' '}
                  {partition.damage.reason}
                </p>
              )}
            </li>
          );
        })}
      </ul>
      <form onSubmit={open} className="form" noValidate aria-label="Open a partition">
        <label>
          Topic id <input name="topicId" className="mono" placeholder="UUID" autoComplete="off" />
        </label>
        <label>
          Partition{' '}
          <input name="partition" inputMode="numeric" defaultValue="0" autoComplete="off" />
        </label>
        <label>
          Topic name <input name="topic" placeholder="optional" autoComplete="off" />
        </label>
        {problem && (
          <p role="alert" className="form-problem">
            {problem}
          </p>
        )}
        <button type="submit">Open partition</button>
      </form>
    </aside>
  );
}

function PartitionDetail({
  connectionId,
  partition,
  operator,
}: {
  connectionId: string;
  partition: SelectedPartition;
  operator: boolean;
}) {
  const listing = useApiQuery('segments.list', {
    connectionId,
    topicId: partition.topicId,
    partition: partition.partition,
    topic: partition.topic,
  });
  const recordedTopic = listing.data?.version ? listing.data.partition.topic : null;
  const topic = listing.data?.partition.topic ?? partition.topic ?? null;
  const name = partitionName({ ...partition, topic });
  return (
    <div className="segments-main">
      <header className="segments-partition-header">
        <h2>
          Partition <span className="mono">{name}</span>
        </h2>
        <span className="muted small mono">
          {partition.topicId}-{partition.partition}
        </span>
        {listing.data && (
          <span
            role="status"
            aria-label="Caught up"
            className={listing.data.caughtUp ? 'badge ok' : 'badge warn'}
          >
            {listing.data.caughtUp ? `Caught up · version ${listing.data.version}` : 'Catching up…'}
          </span>
        )}
        {listing.isFetching && !listing.data && <span className="muted small">Loading…</span>}
        {operator && (
          <AddSegmentDialog
            connectionId={connectionId}
            partition={partition}
            recordedTopic={recordedTopic}
          />
        )}
      </header>
      {listing.error && <ErrorPanel error={listing.error} onRetry={() => void listing.refetch()} />}
      {listing.data && (
        <>
          <PartitionDeleteControl
            connectionId={connectionId}
            partition={partition}
            marker={listing.data.deleteMarker}
            name={name}
            topic={topic}
            operator={operator}
          />
          <OffsetTimeline segments={listing.data.segments} label={name} />
          <SegmentTable
            connectionId={connectionId}
            partition={partition}
            label={name}
            segments={listing.data.segments}
            operator={operator}
          />
          <div className="segments-panels">
            <FindSegmentPanel connectionId={connectionId} partition={partition} />
            <HighestOffsetPanel connectionId={connectionId} partition={partition} />
          </div>
        </>
      )}
    </div>
  );
}
