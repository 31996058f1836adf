/**
 * The shapes of watermark requests (docs/design/watermark-requests.md, "State"), types only:
 * the register's session types name them without importing the field codec.
 */
import type { EntryId } from '../ids';
import type { RegionId } from '../region-id';

export interface RequestAsked {
  /** Random, chosen by the requester: a retried submit finds its own request by it. */
  readonly id: string;
  readonly region: RegionId;
  /** Raise the region's watermark to this id (ids <= it are hidden). */
  readonly watermark: EntryId;
  readonly requestedAtMs: number;
  /** Who asked (session, host): shown, never trusted for anything. */
  readonly requestedBy: string;
}

export type RequestSettlement =
  | {
      readonly state: 'applied';
      /** The epoch whose holder applied it, and when (its clock). */
      readonly epoch: bigint;
      readonly settledAtMs: number;
      /** The region's watermark after the apply (the request's, or a higher one already set). */
      readonly effective: EntryId;
    }
  | {
      readonly state: 'rejected';
      readonly epoch: bigint;
      readonly settledAtMs: number;
      readonly reason: string;
    };

export type WatermarkRequest =
  (RequestAsked & { readonly state: 'pending' }) | (RequestAsked & RequestSettlement);

export type PendingRequest = Extract<WatermarkRequest, { state: 'pending' }>;

/** The requests in the order they were written (oldest first). */
export type RequestLog = readonly WatermarkRequest[];
