/**
 * The chain a collection pass judges when it has no writer's catalog to go by (a maintenance
 * session, or a dry run from a read-only connection): recovery's own scan and judgement, with
 * its single re-read of the boundary and watermarks after a missing object or a broken link.
 * A prefix whose recovery would fail (no complete chain, tail missing, a corrupt or
 * conflicting object) yields no chain: the boundary then stays where it is, and a pass only
 * finishes the deletes below it that an earlier pass left. Writes nothing.
 */
import type { ObjectIo } from '../../objectio/object-io';
import { WalError, type WalErrorCode } from '../errors';
import { recoverFromScan, scanPrefix, type ScanOptions, type TailOutcome } from '../recovery';
import type { ControlState } from '../session';
import type { CollectableObject } from './plan';

/** Recovery failures on the data itself: the chain cannot be trusted, so nothing moves. */
const UNJUDGEABLE: ReadonlySet<WalErrorCode> = new Set([
  'CorruptObject',
  'ConflictingObject',
  'NoCompleteChain',
  'TailMissing',
]);

export interface JudgedChain {
  /** The tip's chain, ascending; empty when there is none or it could not be judged. */
  readonly chain: readonly CollectableObject[];
  /** The control state the chain was judged against (after a re-read, if one happened). */
  readonly control: ControlState;
  /** Why the chain could not be judged (the recovery error's code and message), else null. */
  readonly unjudged: { readonly code: WalErrorCode; readonly message: string } | null;
}

export async function judgeChain(
  io: ObjectIo,
  prefix: string,
  control: ControlState,
  reread: () => Promise<ControlState>,
  options: ScanOptions<TailOutcome> = {},
): Promise<JudgedChain> {
  try {
    const scan = await scanPrefix(io, prefix, control.boundary, options);
    const recovery = await recoverFromScan({
      prefix,
      control,
      scan,
      reread,
      startedAt: performance.now(),
    });
    return { chain: recovery.selection.chain, control: recovery.control, unjudged: null };
  } catch (error) {
    if (!(error instanceof WalError) || !UNJUDGEABLE.has(error.code)) throw error;
    return { chain: [], control, unjudged: { code: error.code, message: error.message } };
  }
}
