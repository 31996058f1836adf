/**
 * `cairn segments ls|get|add|update|find|highest|delete-partition|caught-up`: tiered-segment
 * metadata of a store, through the same TieringConsole the app uses. Flags are checked with
 * the API contract's own schemas (bad usage exits 2); the engine's typed errors exit 1.
 */
import type { Command } from 'commander';
import { groupDescription } from '../command-groups';
import type { z } from 'zod';
import {
  leaderEpochsFromText,
  leaderEpochsToText,
  segmentProcedures,
  Uuid,
  type PartitionSegments,
  type Segment,
  type ListedPartition,
} from '../../../shared/contract/segments';
import { TieringConsole } from '../../services/tiering/tiering-console';
import { openConnection, withConnectionFlags, type ConnectionOptions } from '../connection-flags';
import { printJson, printLines, reportDamaged, table, type DamagedPart } from '../output';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';

interface PartitionFlags extends ConnectionOptions {
  topicId?: string;
  partition?: string;
  topic?: string;
  json?: boolean;
}

interface SegmentFlags extends PartitionFlags {
  segmentId?: string;
  eventId?: string;
  start?: string;
  end?: string;
  epochs?: string;
  size?: string;
  broker?: string;
  maxTimestamp?: string;
  state?: string;
  epoch?: string;
  offset?: string;
}

/** The flag that carries each contract field, so a refused value names what the user typed. */
const FLAG_OF: Readonly<Record<string, string>> = {
  topicId: '--topic-id',
  partition: '--partition',
  topic: '--topic',
  segmentId: '--segment-id',
  eventId: '--event-id',
  startOffset: '--start',
  endOffset: '--end',
  segmentLeaderEpochs: '--epochs',
  segmentSizeBytes: '--size',
  brokerId: '--broker',
  maxTimestampMs: '--max-timestamp',
  state: '--state',
  epoch: '--epoch',
  offset: '--offset',
};

/** The CLI has no saved connection: the flags open the store, so any id satisfies the contract. */
const CLI_CONNECTION = 'cli';

type SegmentProcedures = typeof segmentProcedures;

/** Validate flags as the API would; a refusal is bad usage (exit 2) naming the flag. */
function inputOf<K extends keyof SegmentProcedures>(
  name: K,
  candidate: Record<string, unknown>,
): z.output<SegmentProcedures[K]['input']> {
  const parsed = segmentProcedures[name].input.safeParse({
    connectionId: CLI_CONNECTION,
    ...candidate,
  });
  if (parsed.success) return parsed.data as z.output<SegmentProcedures[K]['input']>;
  const issue = parsed.error.issues[0];
  const [field, ...rest] = issue?.path.map(String) ?? [];
  const flag = field === undefined ? 'input' : (FLAG_OF[field] ?? field);
  throw new UsageError(`${[flag, ...rest].join('.')}: ${issue?.message ?? 'invalid'}`);
}

/** Digits become numbers; anything else is passed on for the schema to refuse by name. */
function numeric(text: string | undefined): number | string | undefined {
  return text !== undefined && /^-?\d{1,16}$/.test(text) ? Number(text) : text;
}

function segmentIdOf(text: string | undefined): string {
  const parsed = Uuid.safeParse(text);
  if (!parsed.success)
    throw new UsageError(`--segment-id: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data;
}

/** ISO time, or the raw milliseconds when they fall outside what a Date can show. */
function timeOf(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : date.toISOString();
}

function partitionCandidate(flags: PartitionFlags): Record<string, unknown> {
  if (flags.topicId === undefined || flags.partition === undefined) {
    throw new UsageError('select a partition with --topic-id UUID --partition N');
  }
  return { topicId: flags.topicId, partition: numeric(flags.partition), topic: flags.topic };
}

async function consoleOf(flags: ConnectionOptions): Promise<TieringConsole> {
  const { io, root } = await openConnection(flags);
  return new TieringConsole(io, root, { writerId: `cairn-cli-${process.pid}` });
}

function withPartitionFlags(command: Command): Command {
  return withConnectionFlags(command)
    .option('--topic-id <uuid>', 'topic id of the partition')
    .option('--partition <n>', 'partition number')
    .option('--topic <name>', 'topic name (needed to add the first segment of a partition)')
    .option('--json', 'print one JSON document');
}

export function registerSegments(program: Command): void {
  const segments = program.command('segments').description(groupDescription('segments'));

  withPartitionFlags(
    segments.command('ls').description('List partitions, or the segments of one partition'),
  ).action(
    runAction(async (flags: PartitionFlags) => {
      const desk = await consoleOf(flags);
      if (flags.topicId === undefined && flags.partition === undefined) {
        const partitions = await desk.partitions();
        if (flags.json) printJson(partitions);
        else printPartitions(partitions);
        reportDamaged(damagedPartitions(partitions));
        return;
      }
      const listing = await desk.list(inputOf('segments.list', partitionCandidate(flags)));
      if (flags.json) printJson(listing);
      else printListing(listing);
    }),
  );

  withPartitionFlags(segments.command('get').description('Show one segment'))
    .requiredOption('--segment-id <uuid>', 'segment id')
    .action(
      runAction(async (flags: SegmentFlags) => {
        const ref = inputOf('segments.list', partitionCandidate(flags));
        const found = await (await consoleOf(flags)).segment(ref, segmentIdOf(flags.segmentId));
        if (flags.json) printJson(found);
        else printSegment(found);
      }),
    );

  withPartitionFlags(
    segments.command('add').description('Record a new segment copy (COPY_SEGMENT_STARTED)'),
  )
    .option('--segment-id <uuid>', 'segment id (default: random)')
    .option('--event-id <uuid>', 'event id, to retry an add safely (default: random)')
    .requiredOption('--start <offset>', 'first offset')
    .requiredOption('--end <offset>', 'last offset')
    .option(
      '--epochs <list>',
      'leader epochs as epoch:firstOffset pairs, e.g. 0:100,1:150 (default: 0:<start>)',
    )
    .option('--size <bytes>', 'segment size in bytes', '0')
    .option('--broker <id>', 'broker id', '0')
    .option('--max-timestamp <ms>', 'largest record timestamp (default: now)')
    .action(
      runAction(async (flags: SegmentFlags) => {
        const epochs = leaderEpochsFromText(flags.epochs ?? `0:${flags.start ?? ''}`);
        if (epochs === null)
          throw new UsageError('--epochs: expected epoch:firstOffset pairs such as 0:100,1:150');
        const input = inputOf('segments.add', {
          ...partitionCandidate(flags),
          segmentId: flags.segmentId,
          eventId: flags.eventId,
          startOffset: numeric(flags.start),
          endOffset: numeric(flags.end),
          segmentLeaderEpochs: epochs,
          segmentSizeBytes: numeric(flags.size),
          brokerId: numeric(flags.broker),
          maxTimestampMs:
            flags.maxTimestamp === undefined ? Date.now() : numeric(flags.maxTimestamp),
        });
        const added = await (await consoleOf(flags)).add(input);
        if (flags.json) printJson(added);
        else printSegment(added);
      }),
    );

  withPartitionFlags(segments.command('update').description('Move a segment along its lifecycle'))
    .requiredOption('--segment-id <uuid>', 'segment id')
    .requiredOption('--state <state>', 'COPY_SEGMENT_FINISHED, DELETE_SEGMENT_STARTED, ...')
    .option('--broker <id>', "broker id (default: the segment's current broker)")
    .option('--event-id <uuid>', 'event id, to retry an update safely (default: random)')
    .action(
      runAction(async (flags: SegmentFlags) => {
        const input = inputOf('segments.update', {
          ...partitionCandidate(flags),
          segmentId: flags.segmentId,
          state: flags.state,
          brokerId: numeric(flags.broker),
          eventId: flags.eventId,
        });
        const updated = await (await consoleOf(flags)).update(input);
        if (flags.json) printJson(updated);
        else if (updated === null)
          printLines([
            `segment ${input.segmentId} is DELETE_SEGMENT_FINISHED: its metadata is dropped`,
          ]);
        else printSegment(updated);
      }),
    );

  withPartitionFlags(
    segments
      .command('find')
      .description('The finished segment serving an offset of a leader epoch'),
  )
    .requiredOption('--epoch <n>', 'leader epoch')
    .requiredOption('--offset <n>', 'offset')
    .action(
      runAction(async (flags: SegmentFlags) => {
        const input = inputOf('segments.find', {
          ...partitionCandidate(flags),
          epoch: numeric(flags.epoch),
          offset: numeric(flags.offset),
        });
        const found = await (await consoleOf(flags)).find(input, input.epoch, input.offset);
        if (flags.json) printJson(found);
        else if (found === null)
          printLines([`no finished segment serves offset ${input.offset} of epoch ${input.epoch}`]);
        else printSegment(found);
      }),
    );

  withPartitionFlags(
    segments
      .command('highest')
      .description('Highest end offset among finished segments of a leader epoch'),
  )
    .requiredOption('--epoch <n>', 'leader epoch')
    .action(
      runAction(async (flags: SegmentFlags) => {
        const input = inputOf('segments.highest', {
          ...partitionCandidate(flags),
          epoch: numeric(flags.epoch),
        });
        const highest = await (await consoleOf(flags)).highest(input, input.epoch);
        if (flags.json) printJson({ epoch: input.epoch, highestOffset: highest });
        else
          printLines([
            highest === null ? `no finished segment carries epoch ${input.epoch}` : String(highest),
          ]);
      }),
    );

  withPartitionFlags(
    segments.command('delete-partition').description("Move the partition's delete marker"),
  )
    .requiredOption(
      '--state <state>',
      'DELETE_PARTITION_MARKED, DELETE_PARTITION_STARTED or DELETE_PARTITION_FINISHED',
    )
    .option('--broker <id>', "broker id (default: the current marker's broker, else 0)")
    .option('--event-id <uuid>', 'event id, to retry safely (default: random)')
    .action(
      runAction(async (flags: SegmentFlags) => {
        const input = inputOf('segments.deletePartition', {
          ...partitionCandidate(flags),
          state: flags.state,
          brokerId: numeric(flags.broker),
          eventId: flags.eventId,
        });
        const marker = await (await consoleOf(flags)).deletePartition(input);
        if (flags.json) printJson(marker);
        else
          printLines([
            `partition ${input.topicId}-${input.partition}: ${marker.state} (broker ${marker.brokerId})`,
          ]);
      }),
    );

  withPartitionFlags(
    segments
      .command('caught-up')
      .description('Take the partition on and ask whether it is caught up with the store'),
  ).action(
    runAction(async (flags: PartitionFlags) => {
      const input = inputOf('segments.caughtUp', partitionCandidate(flags));
      const desk = await consoleOf(flags);
      const { version } = await desk.list(input);
      const caughtUp = await desk.caughtUp(input);
      if (flags.json) printJson({ caughtUp, version });
      else printLines([caughtUp ? `caught up at version ${version}` : 'not caught up']);
    }),
  );
}

function printPartitions(partitions: readonly ListedPartition[]): void {
  if (partitions.length === 0) printLines(['no partition holds tiered-segment metadata']);
  else
    printLines(
      table(
        ['TOPIC-ID', 'PARTITION', 'TOPIC'],
        partitions.map((p) => [
          p.topicId,
          String(p.partition),
          p.damage === null ? (p.topic ?? '-') : 'damaged',
        ]),
      ),
    );
}

/** Partitions whose cell cannot be read, for stderr (the listing above still shows the rest). */
function damagedPartitions(partitions: readonly ListedPartition[]): DamagedPart[] {
  return partitions.flatMap((p) =>
    p.damage === null
      ? []
      : [
          {
            what: `partition ${p.topicId}-${p.partition}`,
            key: p.damage.key,
            reason: p.damage.reason,
          },
        ],
  );
}

function printListing(listing: PartitionSegments): void {
  const { partition, version, deleteMarker } = listing;
  printLines([
    `${partition.topic ?? '(unnamed)'} ${partition.topicId}-${partition.partition}  version ${version}  ${listing.caughtUp ? 'caught up' : 'not caught up'}${deleteMarker === null ? '' : `  ${deleteMarker.state}`}`,
  ]);
  printLines(
    table(
      ['SEGMENT-ID', 'STATE', 'START', 'END', 'EPOCHS', 'SIZE', 'BROKER', 'EVENT-TIME'],
      listing.segments.map((s) => [
        s.segmentId,
        s.state,
        String(s.startOffset),
        String(s.endOffset),
        leaderEpochsToText(s.segmentLeaderEpochs),
        String(s.segmentSizeBytes),
        String(s.brokerId),
        timeOf(s.eventTimestampMs),
      ]),
    ),
  );
}

function printSegment(segment: Segment): void {
  printLines([
    `segment     ${segment.segmentId}`,
    `state       ${segment.state}`,
    `offsets     ${segment.startOffset}..${segment.endOffset}`,
    `epochs      ${leaderEpochsToText(segment.segmentLeaderEpochs)}`,
    `size        ${segment.segmentSizeBytes}`,
    `broker      ${segment.brokerId}`,
    `event time  ${timeOf(segment.eventTimestampMs)}`,
    `event id    ${segment.eventId}`,
  ]);
}
