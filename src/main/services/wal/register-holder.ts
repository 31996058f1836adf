/**
 * Who holds a prefix's register now: the writer epoch and id it names, how long ago it was
 * last written, and whether that writer looks live (written within the live-writer window,
 * the same rule that makes `wal gc` and "take over" refuse without a take-over) - what a GC
 * preview, the console's and `cairn wal gc --dry-run`'s, says a pass would fence. Reads the
 * register and lists its versions; writes nothing.
 */
import type { GcReport } from '../../../shared/contract/wal';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { readControl, registerStoreOf } from '../../engine/wal/register';
import { LIVE_WRITER_WINDOW_MS, newestRegisterVersion } from './live-writer';

export type RegisterHolder = NonNullable<GcReport['holder']>;

/** The register's holder, or null when no writer ever opened the prefix. */
export async function registerHolderOf(
  io: ObjectIo,
  prefix: string,
  openInApp: boolean,
  now = Date.now(),
): Promise<RegisterHolder | null> {
  const [current, newest] = await Promise.all([
    readControl(registerStoreOf(io, prefix)),
    newestRegisterVersion(io, prefix),
  ]);
  if (current === null) return null;
  const at = newest?.at?.getTime();
  const writtenAgoMs = at === undefined ? null : Math.max(0, now - at);
  return {
    epoch: current.control.writerEpoch,
    writerId: current.control.writerId,
    writtenAgoMs,
    live: writtenAgoMs !== null && writtenAgoMs < LIVE_WRITER_WINDOW_MS,
    openInApp,
  };
}

/** `epoch 2 (writer 1f3a…), written 4 s ago: looks live` - the CLI's words. */
export function holderText(holder: RegisterHolder | null): string {
  if (holder === null) return 'register held by nobody (no writer ever opened this prefix)';
  const ago =
    holder.writtenAgoMs === null
      ? 'last write time unknown'
      : `written ${Math.round(holder.writtenAgoMs / 1000)} s ago`;
  const state = holder.openInApp
    ? 'held by a writer of this app'
    : holder.live
      ? 'looks live: a pass fences it (--take-over)'
      : 'looks idle';
  return `register held by epoch ${holder.epoch} (writer ${holder.writerId}), ${ago}: ${state}`;
}
