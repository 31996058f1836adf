/** `cairn wal inspect | verify`: read-only views of WAL prefixes of both formats; they never write. */
import { counted } from '../../../shared/plural';
import type { Command } from 'commander';
import {
  inspectTarget,
  verifyTarget,
  type AnyInspectReport,
} from '../../engine/wal-read/read-side';
import { judgedInspect } from './judged-inspect';
import type { ObjectVerdict } from '../../engine/wal/verify';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import { printJson, printLines, table } from '../output';
import { withProgress } from '../progress';
import { runAction } from '../run-action';
import { describeCairnInspect } from './wal-read-cairn';
import { describeGtInspect } from './wal-read-greptimedb';
import { inspectSummary } from './wal-inspect-summary';
import { inspectHealth, inspectHealthLines } from './inspect-health';
import { EXIT } from '../exit-codes';
import { CommandIndex } from './command-index';
import { cachedScan } from './scan-cache';
import { openWalReadTarget, withAllowEmpty, withWalFlags, type WalOptions } from './wal-config';

type JsonOption = WalOptions & { json?: boolean };
/** commander's `--no-cache` sets `cache: false`. */
type InspectOptions = JsonOption & { cache?: boolean };

export function registerWalReadCommands(wal: Command): void {
  withAllowEmpty(
    withWalFlags(
      wal
        .command('inspect')
        .description(
          'Recover a prefix read-only and print a summary: writer, tip, counts, failure, regions (either format)',
        ),
    ),
  )
    .option('--chain', 'also print every object: the chain, orphans, excluded')
    .option('--json', 'JSON output (the summary; with --chain the whole report)')
    .option('--no-cache', 'read every object (a cold read): neither use nor fill the local index')
    .action(
      runAction(async (options: InspectOptions & { chain?: boolean }) => {
        const opened = await openWalReadTarget(options);
        const { io, link, target } = opened;
        const useCache = options.cache !== false;
        const inspect = async (): Promise<AnyInspectReport> => {
          const cached = await cachedScan(io, target, useCache);
          // The index keeps what was read, even when the inspection fails after the scan.
          return withProgress('inspect', link, () =>
            inspectTarget(io, target, cached.scan),
          ).finally(() => cached.done());
        };
        // On a local directory whose prefix folders did not change, the report judged last time.
        const report = useCache ? await judgedInspect(io, target, inspect) : await inspect();
        // The console's memory: the State, what it covers, what the damage ledger holds.
        const found = await inspectHealth(options, opened, report);
        const withChain = options.chain === true;
        if (options.json) printJson({ ...(withChain ? report : inspectSummary(report)), ...found });
        else
          printLines([
            ...(report.format === 'greptimedb-v1'
              ? describeGtInspect(report, withChain)
              : describeCairnInspect(report, withChain)),
            '',
            ...inspectHealthLines(found),
          ]);
        // GreptimeDB's merged layout: two writers on one prefix is a problem, as in `wal fleet`.
        const twoWriters = report.format === 'greptimedb-v1' && report.merged?.twoWriters;
        if (report.failure || twoWriters || found.ledger.damage.length > 0)
          process.exitCode = EXIT.unhealthy;
      }),
    );

  withAllowEmpty(
    withWalFlags(
      wal
        .command('verify')
        .description('Read every object whole and check every CRC; exit 1 if any is damaged'),
    ),
  )
    .option('--json', 'JSON output')
    .option('--no-cache', 'neither use nor fill the local index')
    .action(
      runAction(async (options: InspectOptions) => {
        const { io, link, target } = await openWalReadTarget(options);
        // Each sound object's one whole read also gives what an open reads of it: kept in the
        // local index, the next command on this prefix (inspect, obsolete, gc) reads no object.
        const index = await CommandIndex.open(
          io,
          target.prefix,
          target.format,
          options.cache !== false,
        );
        const scan = index.scanOf(target.format);
        const report = await withProgress('verify', link, () =>
          verifyTarget(io, target, undefined, scan),
        ).finally(() => index.done());
        if (options.json) printJson({ format: target.format, ...report });
        else {
          // GreptimeDB's objects name their layout (54-byte or writer-instance header).
          const layouts = report.objects.some((o) => o.layout !== undefined);
          printLines(
            table(
              ['SEQ', 'SIZE', 'VERDICT', ...(layouts ? ['LAYOUT'] : []), 'KEY'],
              report.objects.map((o) => [
                String(o.seq ?? '-'),
                String(o.size),
                o.ok ? 'ok' : o.gone ? 'gone' : `DAMAGED (${o.check ?? '?'})`,
                ...(layouts ? [o.layout ?? '-'] : []),
                o.key,
              ]),
            ),
          );
          printLines([
            ...report.objects.flatMap((o) => (o.lost === undefined ? [] : [gtLossLine(o)])),
            `${counted(report.checked, 'object')} checked, ${report.damaged} damaged, ${report.gone} gone`,
          ]);
        }
        if (report.damaged > 0) process.exitCode = EXIT.unhealthy;
      }),
    );
}

/** What GreptimeDB's replay (`on_corrupted_segment = skip`) loses to a damaged object. */
function gtLossLine(verdict: ObjectVerdict): string {
  const lost = verdict.lost ?? [];
  const ranges = lost.map(
    (r) =>
      `region ${formatRegionId(r.regionId)} ids ${formatEntryId(r.firstId)}-${formatEntryId(r.lastId)}`,
  );
  return `GREPTIMEDB LOSES  ${verdict.key}: ${ranges.length === 0 ? 'no region (every segment checks out)' : ranges.join(', ')}`;
}
