/**
 * Starts a region's replay: from the writer this app holds on the prefix, else from its read
 * model; to the caller alone (`replaySinkOf`). The job is the caller's session's and ends with
 * the caller's channel; the damaged segments it skips go to the damage ledger.
 */
import type { ReplayProgress } from '../../../shared/contract/wal';
import { checkPayload } from '../../../shared/greptime/decode/detect-payload';
import { GT_FORMAT } from '../../engine/greptimedb/layout';
import type { SkippedSegment } from '../../engine/wal/reader';
import type { AnyReadOnlyLog } from '../../engine/wal-read/read-side';
import type { Caller } from '../caller';
import type { EventBus } from '../event-bus';
import type { AppWriter } from './app-writer';
import { endWithChannel, replaySinkOf } from './replay-delivery';
import type { ReplayJobs } from './replay-jobs';
import { replaySourceOf } from './replay-source';
import type { Located } from './wal-locate';

export interface ReplayRequest {
  readonly region: bigint;
  readonly fromId: bigint;
  readonly chunkSize: number;
  readonly ratePerSecond?: number;
  readonly maxEntries?: number;
}

/** Where the replay of one prefix reads, and where what it finds goes. */
export interface ReplayPlace {
  readonly connectionId: string;
  readonly at: Located;
  readonly writer: AppWriter | undefined;
  readonly readOnlyLog: () => Promise<AnyReadOnlyLog>;
  readonly onSkipped: (skipped: SkippedSegment) => void;
}

export async function startReplayJob(
  replays: ReplayJobs,
  events: EventBus,
  place: ReplayPlace,
  request: ReplayRequest,
  caller: Caller,
): Promise<ReplayProgress> {
  const { at } = place;
  const { source, latestId, holes } = await replaySourceOf(
    at.prefix,
    place.writer,
    place.readOnlyLog,
    request.region,
    request.fromId,
    place.onSkipped,
  );
  const job = replays.start(
    place.connectionId,
    caller.session,
    source,
    {
      chunkSize: request.chunkSize,
      ratePerSecond: request.ratePerSecond,
      maxEntries: request.maxEntries,
      latestId,
      fromId: request.fromId,
      decode: (payload) => checkPayload(payload, at.format === GT_FORMAT),
    },
    replaySinkOf(caller.channel, events),
    holes,
  );
  endWithChannel(job, caller.channel);
  return job.progress();
}
