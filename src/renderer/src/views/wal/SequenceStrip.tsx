/**
 * The sequence strip of a writer held by this app, left to right in sequence order: the
 * indexed tip, batches waiting for the durability fence, creates in flight (attempt,
 * elapsed), sealed batches waiting, the open batch (entries, bytes, age) and the next
 * sequence; plus the start-gap, orphans and holes. Renders the live snapshot only.
 */
import type { WriterView } from '../../../../shared/contract/wal';
import { ChangeMarked } from '../../components/ChangeMarked';
import { countText, formatBytes, formatCount } from '../format';
import { ageText } from './wal-words';
import { counted } from '../../../../shared/plural';
import { PanelHeading } from '../../components/PrefixName';

function Cell({
  label,
  children,
  tone,
}: {
  label: string;
  children: React.ReactNode;
  tone?: 'busy' | 'warn' | 'idle';
}) {
  return (
    <li className={`strip-cell ${tone ?? ''}`} aria-label={label}>
      <span className="strip-label">{label}</span>
      <span className="strip-value">{children}</span>
    </li>
  );
}

export function SequenceStrip({ writer, prefix }: { writer: WriterView; prefix: string }) {
  const state = writer.state;
  return (
    <section aria-label="Sequence strip" className="wal-panel">
      <PanelHeading what="Sequence strip" prefix={prefix} />
      <ol className="strip">
        <Cell label="Indexed tip">
          {state.indexedTip
            ? `seq ${String(state.indexedTip.seq)} · epoch ${String(state.indexedTip.epoch)}`
            : 'none'}
        </Cell>
        <Cell label="Awaiting fence" tone={state.awaitingFence > 0 ? 'busy' : 'idle'}>
          {countText(state.awaitingFence, 'batch', 'batches')}
          {state.fenceRound &&
            ` (round of ${countText(state.fenceRound.covers, 'batch', 'batches')}, ${ageText(state.fenceRound.elapsedMs)})`}
        </Cell>
        <Cell label="Creates in flight" tone={state.createsInFlight.length > 0 ? 'busy' : 'idle'}>
          {state.createsInFlight.length === 0
            ? 'none'
            : state.createsInFlight
                .map(
                  (create) =>
                    `seq ${String(create.seq)} · try ${create.attempt} · ${ageText(create.elapsedMs)}`,
                )
                .join(', ')}
        </Cell>
        <Cell label="Sealed waiting" tone={state.sealedWaiting > 0 ? 'busy' : 'idle'}>
          {countText(state.sealedWaiting, 'batch', 'batches')}
        </Cell>
        <Cell label="Open batch" tone={state.openBatch ? 'busy' : 'idle'}>
          {state.openBatch
            ? `seq ${String(state.openBatch.seq)} · ${counted(state.openBatch.entries, 'entry')} · ${formatBytes(state.openBatch.bytes)} · ${ageText(state.openBatch.ageMs)}`
            : 'empty'}
        </Cell>
        <Cell label="Next sequence">seq {String(state.nextSeq)}</Cell>
      </ol>
      <dl className="facts strip-facts">
        <dt>Indexed objects</dt>
        <ChangeMarked
          as="dd"
          label="Indexed objects"
          value={writer.indexedObjects}
          describe={(before) =>
            `+${formatCount(writer.indexedObjects - before)} since ${formatCount(before)}`
          }
        >
          {formatCount(writer.indexedObjects)} ({formatBytes(writer.indexedBytes)})
        </ChangeMarked>
        <dt>Start gap</dt>
        <dd>
          certified seq {String(state.certified)}
          {state.gapBlocked ? ' · creates blocked at B + 64' : ''}
          {state.reopening ? ' · gap spent: re-opening under a new epoch' : ''}
          {state.lastReopen !== null
            ? ` · re-opened ${state.reopens}× (last: epoch ${String(state.lastReopen.fromEpoch)} → ${String(state.lastReopen.toEpoch)})`
            : ''}
        </dd>
        <dt>Orphans</dt>
        <dd>
          {countText(writer.orphansAtOpen, 'object')} met at open
          {state.orphanCreatesInFlight > 0
            ? `, ${state.orphanCreatesInFlight} creates landing as orphans`
            : ''}
        </dd>
        <dt>Holes</dt>
        <dd className={writer.holes > 0 ? 'wal-warn' : undefined}>
          {countText(writer.holes, 'hole')}
        </dd>
        <dt>Held appends</dt>
        <dd>{countText(state.heldAppends, 'append')}</dd>
        <dt>Unpersisted</dt>
        <dd>{formatBytes(state.unpersistedBytes)}</dd>
        <dt>Mode</dt>
        <dd>
          {state.ackMode} acks · fence {state.ackFence}
        </dd>
        {state.poisoned && (
          <>
            <dt>Poisoned</dt>
            <dd className="wal-warn">
              {state.poisoned.code}: {state.poisoned.message}
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}
