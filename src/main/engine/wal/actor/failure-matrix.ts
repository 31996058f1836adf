/**
 * wal.md's failure matrix as data: what the writer does with the outcome of one create, by
 * ack mode and whether `stop` has begun. One pure function over one table, so every row is
 * visible in one place and tested without storage. It never performs the action it names.
 */
import type { AckMode } from '../config';
import type { CreateOutcome } from '../uploader';

export type CreateVerdict =
  /** Index in sequence order; acknowledge after the durability fence. */
  | 'index'
  /** durable: the sequence is consumed; this and every batch not yet indexed fail. */
  | 'fail-transient'
  /** enqueued: create the same bytes again after a short delay. */
  | 'retry'
  /** enqueued after stop began: drop the backlog; stop reports it. */
  | 'drop-backlog'
  /** A writer of the same or a later epoch is here: poisoned with `Fenced`. */
  | 'poison-fenced'
  /** Any other terminal clash: poisoned. */
  | 'poison';

export interface VerdictContext {
  readonly ackMode: AckMode;
  readonly stopping: boolean;
  /** This writer's epoch. */
  readonly epoch: bigint;
}

type Situation =
  | 'created'
  | 'transient'
  | 'earlier-epoch'
  | 'same-or-later-epoch'
  | 'unreadable-conflict'
  | 'terminal';

function situationOf(outcome: CreateOutcome, epoch: bigint): Situation {
  switch (outcome.kind) {
    case 'created':
      return 'created';
    case 'transient':
      return 'transient';
    case 'terminal':
      return 'terminal';
    case 'conflict':
      if (outcome.epoch === null) return 'unreadable-conflict';
      return outcome.epoch < epoch ? 'earlier-epoch' : 'same-or-later-epoch';
  }
}

type Row = Readonly<Record<'durable' | 'enqueued' | 'enqueued-stopping', CreateVerdict>>;

/** The matrix. An unreadable object at our key is judged on the safe side: poisoned. */
const MATRIX: Readonly<Record<Situation, Row>> = {
  created: { durable: 'index', enqueued: 'index', 'enqueued-stopping': 'index' },
  transient: { durable: 'fail-transient', enqueued: 'retry', 'enqueued-stopping': 'drop-backlog' },
  'earlier-epoch': { durable: 'fail-transient', enqueued: 'poison', 'enqueued-stopping': 'poison' },
  'same-or-later-epoch': {
    durable: 'poison-fenced',
    enqueued: 'poison-fenced',
    'enqueued-stopping': 'poison-fenced',
  },
  'unreadable-conflict': { durable: 'poison', enqueued: 'poison', 'enqueued-stopping': 'poison' },
  terminal: { durable: 'poison', enqueued: 'poison', 'enqueued-stopping': 'poison' },
};

export function judgeCreate(outcome: CreateOutcome, context: VerdictContext): CreateVerdict {
  const row = MATRIX[situationOf(outcome, context.epoch)];
  if (context.ackMode === 'durable') return row.durable;
  return context.stopping ? row['enqueued-stopping'] : row.enqueued;
}
