/**
 * The epoch holder applying pending requests (docs/design/watermark-requests.md, "Apply"):
 * one control command of the actor, in command order like an `obsolete`, whose single CAS
 * raises the watermarks and settles the requests together. The actor's state moves only once
 * that CAS passed (watermark in the catalog, the certified sequence of the start gap). A
 * request is settled by exactly one CAS: the log only leaves `pending` in a holder's write.
 * Runs inside the actor's command; never starts I/O of its own but the register's.
 */
import { seqOf, type EntryId } from '../ids';
import type { RegionId } from '../region-id';
import { maxSeq, type WriteState } from '../actor/write-state';
import { settlePending } from './apply-rule';
import type { WatermarkRequest } from './fields';

export interface AppliedRequests {
  readonly settled: readonly WatermarkRequest[];
  readonly raised: ReadonlyMap<RegionId, EntryId>;
}

const NOTHING: AppliedRequests = { settled: [], raised: new Map() };

/** The command's start: null when nothing waits (no CAS), else the CAS and what follows it. */
export function startApplyingRequests(
  state: WriteState,
  report: (applied: AppliedRequests) => void,
): Promise<void> | null {
  const register = state.session.register;
  if (register.pendingRequests().length === 0) return null;
  let applied: AppliedRequests = NOTHING;
  return register
    .updateWithRequests((control, log) => {
      // May run again on top of a newer request version: only the last run's result counts.
      const result = settlePending(
        control,
        log,
        (region) => ({ durableId: state.durableEntryId(region) }),
        control.writerEpoch,
        Date.now(),
      );
      applied = { settled: result.settled, raised: result.raised };
      return { control: result.control, log: result.log };
    })
    .then(() => {
      for (const [region, watermark] of applied.raised) {
        state.session.catalog.raiseWatermark(region, watermark);
        state.certified = maxSeq(state.certified, seqOf(watermark));
      }
      report(applied);
    });
}
