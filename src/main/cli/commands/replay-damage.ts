/**
 * How `cairn wal replay` speaks about damage: a region that does not exist is `RegionNotFound`
 * (exit 1), never an empty success; each damaged segment skipped is one line on stderr (and,
 * with `--holes`, one hole record in the NDJSON stream, where it was met), and a replay that
 * skipped any ends with exit 3; `--on-damage fail` stops at the first damaged segment with its
 * typed `CorruptSegment` (exit 1). Owns the flags, the hole line and the exit code.
 */
import type { Command } from 'commander';
import type { ReadOptions, SkippedSegment } from '../../engine/wal/reader';
import type { AnyReadOnlyLog } from '../../engine/wal-read/read-side';
import { checkRegionExists } from '../../services/wal/replay-holes';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import { escapeUnsafeText } from '../../../shared/display-text';
import { UsageError } from '../usage-error';
import { EXIT } from '../exit-codes';

/** The exit code of a replay that skipped at least one damaged segment. */
export const EXIT_HOLES = EXIT.holes;

export interface DamageFlags {
  onDamage: string;
  holes?: boolean;
}

export function withDamageFlags(command: Command): Command {
  return command
    .option(
      '--on-damage <policy>',
      'skip: a damaged segment is reported (stderr, exit 3) and the replay goes on; fail: stop at the first (exit 1)',
      'skip',
    )
    .option(
      '--holes',
      'also write each skipped segment as a {"hole":true,...} record in the stream',
    );
}

/** The record `--holes` writes where the hole was met. */
export function holeRecord(skipped: SkippedSegment): Record<string, string | boolean | bigint> {
  return {
    hole: true,
    region: skipped.regionId,
    key: skipped.key,
    seq: skipped.seq.toString(),
    firstId: skipped.firstId,
    lastId: skipped.lastId,
    check: skipped.check,
    detail: skipped.detail,
  };
}

/** The stderr line of one hole. */
export function holeLine(skipped: SkippedSegment): string {
  const ids = `${formatEntryId(skipped.firstId)}-${formatEntryId(skipped.lastId)}`;
  const detail = skipped.detail === '' ? '' : ` (${skipped.detail})`;
  return `cairn: hole: region ${formatRegionId(skipped.regionId)} ids ${ids} skipped, ${skipped.key}: ${skipped.check} check failed${detail}`;
}

/** One replay's damage handling: the read's options, and the exit code once it ended. */
export class ReplayDamage {
  private skipped = 0;
  readonly options: ReadOptions;

  constructor(
    flags: DamageFlags,
    writeRecord: (record: Record<string, string | boolean | bigint>) => void,
  ) {
    if (flags.onDamage !== 'skip' && flags.onDamage !== 'fail')
      throw new UsageError(`--on-damage must be skip or fail, got "${flags.onDamage}"`);
    this.options = {
      onCorruptedSegment: flags.onDamage,
      onSkipped: (skipped) => {
        this.skipped += 1;
        process.stderr.write(escapeUnsafeText(holeLine(skipped)) + '\n');
        if (flags.holes === true) writeRecord(holeRecord(skipped));
      },
    };
  }

  /** Refuses a region the prefix does not know, before anything is read. */
  checkRegion(log: AnyReadOnlyLog, region: bigint): void {
    checkRegionExists(log.prefix, log.catalog, region, (r) => log.listsRegion?.(r) ?? false);
  }

  /** After the stream: exit 3 when any segment was skipped (each already has its line). */
  finish(): void {
    if (this.skipped > 0) process.exitCode = EXIT_HOLES;
  }
}
