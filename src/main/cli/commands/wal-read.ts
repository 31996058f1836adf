/** `cairn wal ls | inspect | verify`: read-only views of WAL prefixes of both formats; they never write. */
import { counted } from '../../../shared/plural';
import type { Command } from 'commander';
import { discoverPrefixes, type DiscoveredPrefix } from '../../engine/wal-read/discover';
import { inspectTarget, verifyTarget } from '../../engine/wal-read/read-side';
import { isListedPrefix } from '../../services/wal/fleet/fleet-source';
import { printJson, printLines, table } from '../output';
import { withProgress } from '../progress';
import { runAction } from '../run-action';
import { describeCairnInspect } from './wal-read-cairn';
import { describeGtInspect } from './wal-read-greptimedb';
import { inspectSummary } from './wal-inspect-summary';
import { cachedScan } from './scan-cache';
import { openWalConnection, openWalReadTarget, withWalFlags, type WalOptions } from './wal-config';

type JsonOption = WalOptions & { json?: boolean };
/** commander's `--no-cache` sets `cache: false`. */
type InspectOptions = JsonOption & { cache?: boolean };

/** Where `wal ls` looked, in words: the bucket root or the prefix it walked. */
function placeOf(walked: string): string {
  return walked === '' ? 'the bucket root' : walked;
}

export function registerWalReadCommands(wal: Command): void {
  withWalFlags(
    wal
      .command('ls')
      .description(
        "WAL prefixes under --root, as the console's Overview lists them: Cairn's under ROOT/wal, GreptimeDB's anywhere (delimiter listing, bounded)",
      ),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: JsonOption) => {
        const { io, root } = await openWalConnection(options);
        // --prefix walks under that prefix and lists all it finds; else the console's view.
        const walked = options.prefix ?? root;
        const found = await discoverPrefixes(io, walked);
        const prefixes = found.prefixes.filter(
          (p) => options.prefix !== undefined || isListedPrefix(root, p.prefix),
        );
        if (found.truncated)
          process.stderr.write('cairn: the listing stopped at a bound; narrow it with --root\n');
        if (options.json) printJson(prefixes);
        else if (prefixes.length === 0) printLines([`no WAL prefix under ${placeOf(walked)}`]);
        else printLines(prefixTable(prefixes));
      }),
    );

  withWalFlags(
    wal
      .command('inspect')
      .description(
        'Recover a prefix read-only and print a summary: writer, tip, counts, failure, regions (either format)',
      ),
  )
    .option('--chain', 'also print every object: the chain, orphans, excluded')
    .option('--json', 'JSON output (the summary; with --chain the whole report)')
    .option('--no-cache', 'read every object (a cold read): neither use nor fill the local index')
    .action(
      runAction(async (options: InspectOptions & { chain?: boolean }) => {
        const { io, link, target } = await openWalReadTarget(options);
        const cached = await cachedScan(io, target, options.cache !== false);
        // The index keeps what was read, even when the inspection fails after the scan.
        const report = await withProgress('inspect', link, () =>
          inspectTarget(io, target, cached.scan),
        ).finally(() => cached.done());
        const withChain = options.chain === true;
        if (options.json) printJson(withChain ? report : inspectSummary(report));
        else
          printLines(
            report.format === 'greptimedb-v1'
              ? describeGtInspect(report, withChain)
              : describeCairnInspect(report, withChain),
          );
        if (report.failure) process.exitCode = 1;
      }),
    );

  withWalFlags(
    wal
      .command('verify')
      .description('Read every object whole and check every CRC; exit 1 if any is damaged'),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: JsonOption) => {
        const { io, link, target } = await openWalReadTarget(options);
        const report = await withProgress('verify', link, () => verifyTarget(io, target));
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
            `${counted(report.checked, 'object')} checked, ${report.damaged} damaged, ${report.gone} gone`,
          ]);
        }
        if (report.damaged > 0) process.exitCode = 1;
      }),
    );
}

function prefixTable(prefixes: readonly DiscoveredPrefix[]): string[] {
  return table(
    ['FORMAT', 'NODE', 'GENERATION', 'PREFIX'],
    prefixes.map((p) => [
      p.format ?? 'empty',
      p.nodeId === null ? '-' : String(p.nodeId),
      p.generation === null ? '-' : String(p.generation),
      p.prefix,
    ]),
  );
}
