/**
 * The segments of one partition as a table (offsets, epochs, state, size, broker, event time).
 * In operator mode each row offers only the moves the engine's transition table allows from
 * its state; a refused move shows its typed error, and Retry resends the same event id.
 */
import {
  SEGMENT_STATE_NAMES,
  leaderEpochsToText,
  type Segment,
  type SegmentState,
} from '../../../../shared/contract/segments';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { useToasts } from '../../components/Toasts';
import { formatBytes, formatDateTime } from '../format';
import { ACTION_INTO, newUuid, shortId, type SelectedPartition } from './segment-words';

interface TableProps {
  readonly connectionId: string;
  readonly partition: SelectedPartition;
  readonly label: string;
  readonly segments: readonly Segment[];
  readonly operator: boolean;
}

export function SegmentTable({ connectionId, partition, label, segments, operator }: TableProps) {
  const update = useApiMutation('segments.update', ['segments.list', 'segments.partitions']);
  const push = useToasts((state) => state.push);
  const move = (segment: Segment, state: SegmentState) =>
    update.mutate(
      {
        connectionId,
        topicId: partition.topicId,
        partition: partition.partition,
        segmentId: segment.segmentId,
        state,
        eventId: newUuid(),
      },
      {
        onSuccess: () =>
          push({ tone: 'ok', title: `Segment ${shortId(segment.segmentId)} is ${state}` }),
      },
    );
  return (
    <>
      {update.error && (
        <ErrorPanel
          error={update.error}
          onRetry={() => update.variables && update.mutate(update.variables)}
        />
      )}
      <table className="table" aria-label={`Segments of ${label}`}>
        <thead>
          <tr>
            <th scope="col">Segment</th>
            <th scope="col">State</th>
            <th scope="col">Start</th>
            <th scope="col">End</th>
            <th scope="col">Leader epochs</th>
            <th scope="col">Size</th>
            <th scope="col">Broker</th>
            <th scope="col">Event time</th>
            {operator && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {segments.length === 0 && (
            <tr>
              <td colSpan={operator ? 9 : 8} className="muted">
                No segments.
              </td>
            </tr>
          )}
          {segments.map((segment) => (
            <tr key={segment.segmentId}>
              <th scope="row" className="mono" title={segment.segmentId}>
                {shortId(segment.segmentId)}
              </th>
              <td>{segment.state}</td>
              <td className="mono">{segment.startOffset}</td>
              <td className="mono">{segment.endOffset}</td>
              <td className="mono">{leaderEpochsToText(segment.segmentLeaderEpochs)}</td>
              <td>{formatBytes(segment.segmentSizeBytes)}</td>
              <td>{segment.brokerId}</td>
              <td className="small">{timeOf(segment.eventTimestampMs)}</td>
              {operator && (
                <td>
                  <TransitionButtons
                    segment={segment}
                    busy={update.isPending}
                    onMove={(state) => move(segment, state)}
                  />
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Buttons for the valid moves out of the segment's state (a same-state replay is not offered). */
function TransitionButtons({
  segment,
  busy,
  onMove,
}: {
  segment: Segment;
  busy: boolean;
  onMove: (state: SegmentState) => void;
}) {
  const next = useApiQuery(
    'segments.transitions',
    { lifecycle: 'segment', from: segment.state },
    { staleTime: Infinity },
  );
  const moves = (next.data ?? []).filter(
    (state): state is SegmentState => isSegmentState(state) && state !== segment.state,
  );
  return (
    <div className="segment-actions">
      {moves.map((state) => (
        <button
          key={state}
          type="button"
          disabled={busy}
          onClick={() => onMove(state)}
          aria-label={`${ACTION_INTO[state]} of segment ${shortId(segment.segmentId)}`}
        >
          {ACTION_INTO[state]}
        </button>
      ))}
    </div>
  );
}

function isSegmentState(state: string): state is SegmentState {
  return (SEGMENT_STATE_NAMES as readonly string[]).includes(state);
}

function timeOf(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : formatDateTime(date);
}
