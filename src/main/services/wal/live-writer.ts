/**
 * The live-writer guard shared by the CLI and the console: taking a prefix's epoch fences
 * whichever process holds it, so a prefix whose register was written in the last 30 s (the
 * tail hint is refreshed every 10 s by a running writer) is refused unless the caller says
 * "take over". Owns the window, the typed refusal and how the register's age is read; it
 * never takes an epoch itself.
 */
import { CairnError } from '../../engine/errors';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { manifestCell } from '../../engine/wal/keys';

/** A register written more recently than this belongs to a writer that may still be live. */
export const LIVE_WRITER_WINDOW_MS = 30_000;

export class LiveWriterError extends CairnError {
  constructor(prefix: string, ageMs: number) {
    super(
      'LiveWriter',
      `${prefix} was written ${Math.round(ageMs / 1000)} s ago: a writer may be live, and taking the epoch fences it; take over to do it anyway (--take-over, or "Take over as writer" in the console)`,
      { prefix, ageMs },
    );
  }
}

/** The register's newest version object (key and modification time), null when none exists. */
export async function newestRegisterVersion(
  io: ObjectIo,
  prefix: string,
): Promise<{ readonly key: string; readonly at?: Date } | null> {
  let newest: { key: string; at?: Date } | null = null;
  for await (const page of io.list(`${manifestCell(prefix)}/`)) {
    for (const object of page.objects)
      if (newest === null || object.key > newest.key)
        newest = { key: object.key, at: object.lastModified };
  }
  return newest;
}

/** When the register was last written: the newest version object's modification time. */
export async function registerWrittenAt(io: ObjectIo, prefix: string): Promise<Date | null> {
  return (await newestRegisterVersion(io, prefix))?.at ?? null;
}

/** Refuses (LiveWriter) when the register is fresh and the caller did not ask to take over. */
export async function checkNoLiveWriter(
  io: ObjectIo,
  prefix: string,
  takeOver: boolean,
  now = Date.now(),
): Promise<void> {
  if (takeOver) return;
  const written = await registerWrittenAt(io, prefix);
  const ageMs = written === null ? Infinity : now - written.getTime();
  if (ageMs < LIVE_WRITER_WINDOW_MS) throw new LiveWriterError(prefix, ageMs);
}
