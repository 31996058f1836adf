/**
 * The console's seat at one store's tiered-segment metadata: one ObjectRemoteLogMetadataManager
 * over (io, root), taking partitions on as they are first asked for and catching up with the
 * store before every read, so the console shows what brokers and other consoles published.
 * The app (one per connection) and the CLI both use it.
 *
 * Owns: which partitions it has taken on, the defaults of an event the caller left out
 * (event id, segment id, timestamps, broker), and the partition's recorded topic name.
 * Never validates state rules (the engine does, on every publish) and never publishes an
 * event for a partition under a topic name other than the one its metadata records.
 */
import { randomUUID } from 'node:crypto';
import type {
  AddSegmentInput,
  DeletePartitionInput,
  ListedPartition,
  PartitionSegments,
  Segment,
  UpdateSegmentInput,
} from '../../../shared/contract/segments';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { CellCorruptError } from '../../engine/cas/errors';
import {
  InvalidMetadataError,
  SegmentNotFoundError,
  TieringIoError,
  partitionKey,
  type RemoteLogSegmentMetadata,
  type TopicIdPartition,
} from '../../engine/tiering';
import { ConsoleRemoteLogMetadataManager } from './console-manager';
import { TopicNameMismatchError, TopicNameRequiredError } from './errors';
import { presentDeleteMarker, presentSegment } from './segment-presenter';

/** Which partition a call is about; `topic` is optional: the metadata records it. */
export interface PartitionRef {
  readonly topicId: string;
  readonly partition: number;
  readonly topic?: string | undefined;
}

export interface PartitionChange {
  readonly topicId: string;
  readonly partition: number;
}

export interface TieringConsoleOptions {
  /** Called after every successful publish (including a retry the store had applied already). */
  readonly onChanged?: (change: PartitionChange) => void;
  /** Recorded in the cell versions this console writes. */
  readonly writerId?: string;
  readonly now?: () => number;
  readonly newId?: () => string;
}

/**
 * Taking a partition on needs a valid topic name before its metadata is read. This stands in
 * until the cell says otherwise; it is never written (an add needs the real name).
 */
const UNNAMED_TOPIC = '__cairn_unnamed';

interface TakeOn {
  readonly tp: TopicIdPartition;
  readonly ready: Promise<void>;
}

export class TieringConsole {
  private readonly manager: ConsoleRemoteLogMetadataManager;
  private readonly takeOns = new Map<string, TakeOn>();
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(
    io: ObjectIo,
    root: string,
    private readonly options: TieringConsoleOptions = {},
  ) {
    this.manager = new ConsoleRemoteLogMetadataManager(io, root, { writerId: options.writerId });
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  /**
   * Every partition with metadata under the root, each read (so its topic name is known); a
   * cell that cannot be read is listed with its key and why, never hiding the others.
   */
  async partitions(): Promise<ListedPartition[]> {
    const stored = await this.manager.listPartitions();
    return Promise.all(
      stored.map(async ({ topicId, partition }) => {
        const damage = await this.damageOf({ topicId, partition });
        return { topicId, partition, topic: this.recordedTopic({ topicId, partition }), damage };
      }),
    );
  }

  /** Null when the partition's cell reads; its key and reason when its content is damaged. */
  private async damageOf(ref: PartitionRef): Promise<ListedPartition['damage']> {
    try {
      await this.take(ref);
      return null;
    } catch (error) {
      const cause = error instanceof TieringIoError ? error.cause : undefined;
      if (!(cause instanceof CellCorruptError || cause instanceof InvalidMetadataError))
        throw error;
      return { key: `${this.manager.cellNameOf(ref)}/`, reason: cause.message };
    }
  }

  async list(ref: PartitionRef): Promise<PartitionSegments> {
    const tp = await this.take(ref);
    const facts = this.manager.heldFacts(tp);
    const version = this.manager.appliedVersion(tp);
    return {
      partition: {
        topicId: tp.topicId,
        partition: tp.partition,
        topic: this.recordedTopic(tp) ?? ref.topic ?? null,
      },
      version,
      caughtUp: true,
      deleteMarker: presentDeleteMarker(facts.deleteMetadata),
      segments: (await this.manager.listRemoteLogSegments(tp)).map(presentSegment),
    };
  }

  async segment(ref: PartitionRef, segmentId: string): Promise<Segment> {
    const tp = await this.take(ref);
    const found = await this.stored(tp, segmentId);
    if (found === undefined) throw new SegmentNotFoundError(segmentId, tp);
    return presentSegment(found);
  }

  async find(ref: PartitionRef, epoch: number, offset: number): Promise<Segment | null> {
    const tp = await this.take(ref);
    const found = await this.manager.remoteLogSegmentMetadata(tp, epoch, offset);
    return found === null ? null : presentSegment(found);
  }

  async highest(ref: PartitionRef, epoch: number): Promise<number | null> {
    return this.manager.highestOffsetForEpoch(await this.take(ref), epoch);
  }

  /** The manager's answer as is: false for a partition this console has not taken on. */
  async caughtUp(ref: PartitionRef): Promise<boolean> {
    const held = this.takeOns.get(partitionKey(ref));
    if (held === undefined) return false;
    await held.ready;
    return this.manager.caughtUp(held.tp);
  }

  async add(input: Omit<AddSegmentInput, 'connectionId'>): Promise<Segment> {
    const tp = await this.takeNamed(input);
    const metadata: RemoteLogSegmentMetadata = {
      eventId: input.eventId ?? this.newId(),
      segmentId: { topicIdPartition: tp, id: input.segmentId ?? this.newId() },
      startOffset: input.startOffset,
      endOffset: input.endOffset,
      maxTimestampMs: input.maxTimestampMs,
      brokerId: input.brokerId,
      eventTimestampMs: input.eventTimestampMs ?? this.now(),
      segmentSizeBytes: input.segmentSizeBytes,
      segmentLeaderEpochs: input.segmentLeaderEpochs,
      state: 'COPY_SEGMENT_STARTED',
      customMetadata: input.customMetadata,
    };
    await this.manager.addRemoteLogSegmentMetadata(metadata);
    this.announce(tp);
    return presentSegment((await this.stored(tp, metadata.segmentId.id)) ?? metadata);
  }

  /** The segment after the move, or null once DELETE_SEGMENT_FINISHED has dropped it. */
  async update(input: Omit<UpdateSegmentInput, 'connectionId'>): Promise<Segment | null> {
    const tp = await this.take(input);
    const current = await this.stored(tp, input.segmentId);
    await this.manager.updateRemoteLogSegmentMetadata({
      eventId: input.eventId ?? this.newId(),
      segmentId: { topicIdPartition: tp, id: input.segmentId },
      eventTimestampMs: input.eventTimestampMs ?? this.now(),
      state: input.state,
      // A segment not in this console's cache is judged by the engine against the store.
      brokerId: input.brokerId ?? current?.brokerId ?? 0,
      customMetadata: input.customMetadata,
    });
    this.announce(tp);
    const after = await this.stored(tp, input.segmentId);
    return after === undefined ? null : presentSegment(after);
  }

  async deletePartition(input: Omit<DeletePartitionInput, 'connectionId'>) {
    const tp = await this.take(input);
    const current = this.manager.heldFacts(tp).deleteMetadata;
    await this.manager.putRemotePartitionDeleteMetadata({
      eventId: input.eventId ?? this.newId(),
      topicIdPartition: tp,
      state: input.state,
      eventTimestampMs: input.eventTimestampMs ?? this.now(),
      brokerId: input.brokerId ?? current?.brokerId ?? 0,
    });
    this.announce(tp);
    const marker = presentDeleteMarker(this.manager.heldFacts(tp).deleteMetadata);
    // The publish succeeded, so the marker exists; this only narrows the type.
    if (marker === null)
      throw new Error('partition delete marker missing after a successful publish');
    return marker;
  }

  // ----- taking partitions on -----

  /** Take `ref` on (once), catch up with the store, and answer the partition as recorded. */
  private async take(ref: PartitionRef): Promise<TopicIdPartition> {
    const key = partitionKey(ref);
    let held = this.takeOns.get(key);
    if (held === undefined) {
      const tp = {
        topicId: ref.topicId,
        partition: ref.partition,
        topic: ref.topic ?? UNNAMED_TOPIC,
      };
      const takeOn: TakeOn = { tp, ready: this.manager.assignPartitions([tp]) };
      this.takeOns.set(key, takeOn);
      // A failed first load is forgotten, so the next call loads afresh instead of failing forever.
      takeOn.ready.catch(() => void this.forget(key, takeOn));
      held = takeOn;
    }
    await held.ready;
    await this.manager.caughtUp(held.tp);
    return this.manager.heldFacts(held.tp).topicIdPartition;
  }

  /**
   * Take `ref` on under its real topic name, as an add needs: the name the metadata records,
   * else the caller's. A partition with nothing recorded is taken on again under the caller's
   * name, so the first version written names the topic rightly.
   */
  private async takeNamed(ref: PartitionRef): Promise<TopicIdPartition> {
    const tp = await this.take(ref);
    const recorded = this.recordedTopic(tp);
    if (recorded !== null) {
      if (ref.topic !== undefined && ref.topic !== recorded) {
        throw new TopicNameMismatchError(tp.topicId, tp.partition, recorded, ref.topic);
      }
      return tp;
    }
    if (ref.topic === undefined) throw new TopicNameRequiredError(tp.topicId, tp.partition);
    if (tp.topic === ref.topic) return tp;
    const key = partitionKey(tp);
    const held = this.takeOns.get(key);
    if (held !== undefined) await this.forget(key, held);
    return this.take(ref);
  }

  /** Release a take-on; releasing only drops cached state, so it cannot fail. */
  private async forget(key: string, takeOn: TakeOn): Promise<void> {
    if (this.takeOns.get(key) !== takeOn) return;
    this.takeOns.delete(key);
    await this.manager.unassignPartitions([takeOn.tp]);
  }

  /** The topic name the partition's metadata records, if this console holds a written version. */
  private recordedTopic(ref: PartitionRef): string | null {
    const held = this.takeOns.get(partitionKey(ref));
    if (held === undefined || this.manager.appliedVersion(held.tp) === 0) return null;
    try {
      return this.manager.heldFacts(held.tp).topicIdPartition.topic;
    } catch {
      return null; // still loading: the name is simply not known yet
    }
  }

  private async stored(
    tp: TopicIdPartition,
    segmentId: string,
  ): Promise<RemoteLogSegmentMetadata | undefined> {
    return (await this.manager.listRemoteLogSegments(tp)).find(
      (segment) => segment.segmentId.id === segmentId,
    );
  }

  private announce(tp: TopicIdPartition): void {
    this.options.onChanged?.({ topicId: tp.topicId, partition: tp.partition });
  }
}
