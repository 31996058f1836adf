/**
 * Model-based test: random sequences of adds, updates, partition deletes, retries and queries,
 * published through two object-store managers sharing one bucket, must give exactly the
 * outcomes (results and error codes) of the in-memory reference.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { expect } from 'vitest';
import { MIN_KEPT_VERSIONS } from '../../src/main/engine/cas/cas-cell';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import {
  InMemoryRemoteLogMetadataManager,
  ObjectRemoteLogMetadataManager,
  PARTITION_DELETE_STATES,
  SEGMENT_STATES,
  type RemoteLogMetadataManager,
  type RemoteLogSegmentState,
  type RemotePartitionDeleteState,
} from '../../src/main/engine/tiering';
import { partitionDelete, segment, update, type SegmentShape } from './fixtures';
import { ROOT } from './lanes';

const TP = { topicId: '6f1c2a7e-93b4-4c1e-8a55-0d2f3b4c5d6e', topic: 'events', partition: 0 };
/** A small pool so updates and duplicate adds often hit known segments. */
const SEGMENT_IDS = [
  '11111111-1111-4111-8111-111111111111',
  '22222222-2222-4222-8222-222222222222',
  '33333333-3333-4333-8333-333333333333',
  '44444444-4444-4444-8444-444444444444',
];

interface Model {
  readonly reference: InMemoryRemoteLogMetadataManager;
  /** Every event issued so far, so a later command can retry one. */
  readonly issued: ((rlmm: RemoteLogMetadataManager) => Promise<unknown>)[];
}
interface Real {
  readonly managers: readonly [ObjectRemoteLogMetadataManager, ObjectRemoteLogMetadataManager];
}

type Outcome = { ok: unknown } | { code: string };

async function outcomeOf(action: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: await action() };
  } catch (error) {
    return { code: (error as { code?: string }).code ?? String(error) };
  }
}

/** Run on the reference and on one of the two managers; the outcomes must match. */
async function sameOutcome(
  model: Model,
  real: Real,
  via: 0 | 1,
  action: (rlmm: RemoteLogMetadataManager) => Promise<unknown>,
): Promise<void> {
  const expected = await outcomeOf(() => action(model.reference));
  const actual = await outcomeOf(() => action(real.managers[via]));
  expect(actual).toEqual(expected);
}

class PublishCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly label: string,
    readonly via: 0 | 1,
    readonly publish: (rlmm: RemoteLogMetadataManager) => Promise<unknown>,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    model.issued.push(this.publish);
    await sameOutcome(model, real, this.via, this.publish);
  }
  toString = (): string => `${this.label} via ${this.via}`;
}

class RetryCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly via: 0 | 1,
  ) {}
  check = (model: Readonly<Model>): boolean => model.issued.length > 0;
  async run(model: Model, real: Real): Promise<void> {
    const publish = model.issued[this.pick % model.issued.length]!;
    await sameOutcome(model, real, this.via, publish);
  }
  toString = (): string => `retry #${this.pick} via ${this.via}`;
}

class QueryCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly label: string,
    readonly via: 0 | 1,
    readonly query: (rlmm: RemoteLogMetadataManager) => Promise<unknown>,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    // The contract's barrier: once caughtUp answers true, the peer's events are visible.
    expect(await real.managers[this.via].caughtUp(TP)).toBe(true);
    await sameOutcome(model, real, this.via, this.query);
  }
  toString = (): string => `${this.label} via ${this.via}`;
}

/** A find aimed inside a segment the reference knows, so hits are frequent. */
class FindInsideCommand implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly pick: number,
    readonly position: number,
    readonly via: 0 | 1,
  ) {}
  check = (): boolean => true;
  async run(model: Model, real: Real): Promise<void> {
    const known = await model.reference.listRemoteLogSegments(TP);
    const target = known[this.pick % Math.max(1, known.length)];
    if (target === undefined) return;
    const entry = target.segmentLeaderEpochs[this.pick % target.segmentLeaderEpochs.length]!;
    const offset =
      entry.startOffset + Math.round(this.position * (target.endOffset - entry.startOffset));
    expect(await real.managers[this.via].caughtUp(TP)).toBe(true);
    await sameOutcome(model, real, this.via, (rlmm) =>
      rlmm.remoteLogSegmentMetadata(TP, entry.epoch, offset),
    );
  }
  toString = (): string => `find inside #${this.pick} at ${this.position} via ${this.via}`;
}

const viaArb = fc.constantFrom<0 | 1>(0, 1);
const slotArb = fc.nat({ max: SEGMENT_IDS.length - 1 });

/** A well-formed segment shape in a small offset space, so layouts overlap often. */
const shapeArb: fc.Arbitrary<SegmentShape> = fc
  .record({
    start: fc.nat({ max: 60 }),
    length: fc.nat({ max: 40 }),
    epochs: fc.uniqueArray(fc.nat({ max: 4 }), { minLength: 1, maxLength: 3 }),
  })
  .chain(({ start, length, epochs }) => {
    const end = start + length;
    const sorted = [...epochs].sort((a, b) => a - b).slice(0, length + 1);
    return fc
      .uniqueArray(fc.integer({ min: start + 1, max: Math.max(start + 1, end) }), {
        minLength: sorted.length - 1,
        maxLength: sorted.length - 1,
      })
      .map((later) => {
        const offsets = [start, ...later.sort((a, b) => a - b)];
        return { start, end, epochs: sorted.map((epoch, i) => [epoch, offsets[i]!] as const) };
      });
  });

/** Mostly the happy path (so many segments finish and answer queries), sometimes anything. */
const updateStateArb = fc.oneof(
  { weight: 3, arbitrary: fc.constant<RemoteLogSegmentState>('COPY_SEGMENT_FINISHED') },
  { weight: 2, arbitrary: fc.constantFrom<RemoteLogSegmentState>(...SEGMENT_STATES) },
);
/** A partition delete that finishes wipes everything, so it stays rare. */
const deleteStateArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom<RemotePartitionDeleteState>(
      'DELETE_PARTITION_MARKED',
      'DELETE_PARTITION_STARTED',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom<RemotePartitionDeleteState>(...PARTITION_DELETE_STATES) },
);
const wrongStateArb = fc.integer({ min: 0, max: 7 }).map((n) => n === 0);

const addArb = fc.tuple(slotArb, shapeArb, fc.uuid(), viaArb, wrongStateArb).map(
  ([slot, shape, eventId, via, wrongState]) =>
    new PublishCommand(
      `add ${slot} ${JSON.stringify(shape)}${wrongState ? ' finished' : ''}`,
      via,
      (rlmm) =>
        rlmm.addRemoteLogSegmentMetadata(
          segment(TP, {
            ...shape,
            id: SEGMENT_IDS[slot],
            eventId,
            state: wrongState ? 'COPY_SEGMENT_FINISHED' : 'COPY_SEGMENT_STARTED',
          }),
        ),
    ),
);
const commandArbs = [
  addArb,
  addArb,
  fc
    .tuple(slotArb, updateStateArb, fc.uuid(), viaArb)
    .map(
      ([slot, state, eventId, via]) =>
        new PublishCommand(`update ${slot} ${state}`, via, (rlmm) =>
          rlmm.updateRemoteLogSegmentMetadata(
            update({ segmentId: { topicIdPartition: TP, id: SEGMENT_IDS[slot]! } }, state, eventId),
          ),
        ),
    ),
  fc
    .tuple(deleteStateArb, fc.uuid(), viaArb)
    .map(
      ([state, eventId, via]) =>
        new PublishCommand(`delete ${state}`, via, (rlmm) =>
          rlmm.putRemotePartitionDeleteMetadata(partitionDelete(TP, state, eventId)),
        ),
    ),
  fc.tuple(fc.nat(), viaArb).map(([pick, via]) => new RetryCommand(pick, via)),
  fc
    .tuple(fc.nat({ max: 5 }), fc.nat({ max: 110 }), viaArb)
    .map(
      ([epoch, offset, via]) =>
        new QueryCommand(`find e${epoch} @${offset}`, via, (rlmm) =>
          rlmm.remoteLogSegmentMetadata(TP, epoch, offset),
        ),
    ),
  fc
    .tuple(fc.nat({ max: 5 }), viaArb)
    .map(
      ([epoch, via]) =>
        new QueryCommand(`highest e${epoch}`, via, (rlmm) => rlmm.highestOffsetForEpoch(TP, epoch)),
    ),
  fc
    .tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), viaArb)
    .map(([pick, position, via]) => new FindInsideCommand(pick, position, via)),
  fc
    .tuple(fc.nat(), fc.double({ min: 0, max: 1, noNaN: true }), viaArb)
    .map(([pick, position, via]) => new FindInsideCommand(pick, position, via)),
  viaArb.map((via) => new QueryCommand('list', via, (rlmm) => rlmm.listRemoteLogSegments(TP))),
  fc
    .tuple(fc.nat({ max: 5 }), viaArb)
    .map(
      ([epoch, via]) =>
        new QueryCommand(`list e${epoch}`, via, (rlmm) =>
          rlmm.listRemoteLogSegmentsByEpoch(TP, epoch),
        ),
    ),
];

describe('object-store managers against the in-memory reference', () => {
  it('agree on every outcome of random event sequences', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.commands(commandArbs, { maxCommands: 80, size: 'large' }),
        async (commands) => {
          const io = new MemoryObjectIo();
          const reference = new InMemoryRemoteLogMetadataManager();
          // Pruning every 4 versions: a manager whose cache fell behind publishes from a base
          // that was pruned (Conflict, re-read), and reads meet versions vanishing.
          const managers = [
            new ObjectRemoteLogMetadataManager(io, ROOT, { pruneEveryVersions: 4 }),
            new ObjectRemoteLogMetadataManager(io, ROOT, { pruneEveryVersions: 4 }),
          ] as const;
          await reference.assignPartitions([TP]);
          await Promise.all(managers.map((m) => m.assignPartitions([TP])));
          await fc.asyncModelRun(
            () => ({ model: { reference, issued: [] }, real: { managers } }),
            commands,
          );
          // The cell stays bounded: the newest 16 plus the writes since the last prune.
          const cell = managers[0].cellNameOf(TP);
          const stored = (await io.listPage(`${cell}/`)).objects.length;
          expect(stored).toBeLessThanOrEqual(MIN_KEPT_VERSIONS + 4);
        },
      ),
      { numRuns: 100 },
    );
  });
});
