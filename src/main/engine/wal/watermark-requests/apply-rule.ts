/**
 * The apply rule (docs/design/watermark-requests.md, "Apply"): what the epoch holder does
 * with each pending request at its next register write. Pure: from the request and what the
 * writer knows of the region, the settlement; from a log, the settled log and the control
 * state's new watermarks, all written by one CAS. It never raises a watermark above the
 * request's id, and never above the region's latest durable id, so no entry the writer
 * acknowledged above the requested watermark (nor any it has not made durable yet) is hidden,
 * and no sequence floor is ever needed.
 */
import { checkObsoleteId, type EntryId } from '../ids';
import { formatRegionId, type RegionId } from '../region-id';
import type { ControlState } from '../session';
import { withWatermark } from '../actor/control-changes';
import {
  boundedLog,
  type PendingRequest,
  type RequestLog,
  type RequestSettlement,
  type WatermarkRequest,
} from './fields';

/** What the holder knows of a region when it settles a request for it. */
export interface RegionFacts {
  /** Largest durable (indexed and fenced) id, or the persisted watermark if larger; 0: none. */
  readonly durableId: EntryId;
  /** The watermark in force (persisted). */
  readonly watermark: EntryId;
}

export type Decision =
  | { readonly state: 'applied'; readonly effective: EntryId }
  | { readonly state: 'rejected'; readonly reason: string };

function validId(id: EntryId): string | null {
  try {
    checkObsoleteId(id);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The settlement of one request, given the region as the holder knows it now. */
export function decideRequest(request: PendingRequest, facts: RegionFacts): Decision {
  const invalid = request.watermark === 0n ? 'id 0 hides nothing' : validId(request.watermark);
  if (invalid !== null) return { state: 'rejected', reason: `invalid watermark: ${invalid}` };
  if (request.watermark <= facts.watermark) return { state: 'applied', effective: facts.watermark };
  if (request.watermark > facts.durableId)
    return {
      state: 'rejected',
      reason:
        `above the latest durable id ${facts.durableId} of region ${formatRegionId(request.region)} ` +
        'at the writer: it would hide entries not yet durable',
    };
  return { state: 'applied', effective: request.watermark };
}

export interface SettledRequests {
  readonly control: ControlState;
  readonly log: RequestLog;
  /** The requests this write settles, with their settlement. */
  readonly settled: readonly WatermarkRequest[];
  /** Regions whose watermark this write raises, to the value written. */
  readonly raised: ReadonlyMap<RegionId, EntryId>;
}

/**
 * Settles every pending request of `log` in order, each against the watermarks the earlier
 * ones raised. `factsOf` gives the writer's view of a region (its watermark is taken from the
 * control state being written, so two requests of one region compose).
 */
export function settlePending(
  control: ControlState,
  log: RequestLog,
  factsOf: (region: RegionId) => { readonly durableId: EntryId },
  epoch: bigint,
  nowMs: number,
): SettledRequests {
  let next = control;
  const settled: WatermarkRequest[] = [];
  const raised = new Map<RegionId, EntryId>();
  const settledLog = log.map((request): WatermarkRequest => {
    if (request.state !== 'pending') return request;
    const watermark = next.watermarks.get(request.region) ?? 0n;
    const decision = decideRequest(request, {
      durableId: factsOf(request.region).durableId,
      watermark,
    });
    const settlement: RequestSettlement =
      decision.state === 'applied'
        ? { state: 'applied', epoch, settledAtMs: nowMs, effective: decision.effective }
        : { state: 'rejected', epoch, settledAtMs: nowMs, reason: decision.reason };
    if (decision.state === 'applied' && decision.effective > watermark) {
      next = withWatermark(next, request.region, decision.effective);
      raised.set(request.region, decision.effective);
    }
    const done: WatermarkRequest = { ...request, ...settlement };
    settled.push(done);
    return done;
  });
  return { control: next, log: boundedLog(settledLog), settled, raised };
}
