/** `cairn wal ls | inspect | verify`: read-only views of WAL prefixes of both formats; they never write. */
import type { Command } from 'commander';
import { discoverPrefixes } from '../../engine/wal-read/discover';
import { inspectTarget, verifyTarget } from '../../engine/wal-read/read-side';
import type { InspectReport } from '../../engine/wal/inspect';
import { formatRegionId } from '../../engine/wal/region-id';
import { printJson, printLines, table } from '../output';
import { runAction } from '../run-action';
import { describeGtInspect } from './wal-read-greptimedb';
import { cachedScan } from './scan-cache';
import { openWalConnection, openWalReadTarget, withWalFlags, type WalOptions } from './wal-config';

type JsonOption = WalOptions & { json?: boolean };
/** commander's `--no-cache` sets `cache: false`. */
type InspectOptions = JsonOption & { cache?: boolean };

export function registerWalReadCommands(wal: Command): void {
  withWalFlags(
    wal
      .command('ls')
      .description(
        'WAL prefixes under the root, Cairn and GreptimeDB formats (delimiter listing, bounded)',
      ),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: JsonOption) => {
        const { io, root, prefix } = await openWalConnection(options);
        const found = await discoverPrefixes(io, options.prefix === undefined ? root : prefix);
        if (found.truncated)
          process.stderr.write('cairn: the listing stopped at a bound; narrow it with --root\n');
        if (options.json) printJson(found.prefixes);
        else
          printLines(
            table(
              ['FORMAT', 'NODE', 'GENERATION', 'PREFIX'],
              found.prefixes.map((p) => [
                p.format ?? 'empty',
                p.nodeId === null ? '-' : String(p.nodeId),
                p.generation === null ? '-' : String(p.generation),
                p.prefix,
              ]),
            ),
          );
      }),
    );

  withWalFlags(
    wal
      .command('inspect')
      .description(
        'Recover a prefix read-only: tip, chain, orphans, regions, writer (either format)',
      ),
  )
    .option('--json', 'JSON output')
    .option('--no-cache', 'read every object (a cold read): neither use nor fill the local index')
    .action(
      runAction(async (options: InspectOptions) => {
        const { io, target } = await openWalReadTarget(options);
        const cached = await cachedScan(io, target, options.cache !== false);
        // The index keeps what was read, even when the inspection fails after the scan.
        const report = await inspectTarget(io, target, cached.scan).finally(() => cached.done());
        if (options.json) printJson(report);
        else
          printLines(
            report.format === 'greptimedb-v1' ? describeGtInspect(report) : describeInspect(report),
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
        const { io, target } = await openWalReadTarget(options);
        const report = await verifyTarget(io, target);
        if (options.json) printJson({ format: target.format, ...report });
        else {
          printLines(
            table(
              ['SEQ', 'SIZE', 'VERDICT', 'KEY'],
              report.objects.map((o) => [
                String(o.seq ?? '-'),
                String(o.size),
                o.ok ? 'ok' : o.gone ? 'gone' : `DAMAGED (${o.check ?? '?'})`,
                o.key,
              ]),
            ),
          );
          printLines([
            `${report.checked} objects checked, ${report.damaged} damaged, ${report.gone} gone`,
          ]);
        }
        if (report.damaged > 0) process.exitCode = 1;
      }),
    );
}

function describeInspect(report: InspectReport): string[] {
  const register = report.register;
  const lines = [
    `prefix        ${report.prefix} (cairn-v1)`,
    `writer        ${register.exists ? `epoch ${register.writerEpoch}, id ${register.writerId}` : 'none (no writer ever opened this prefix)'}`,
    `tail hint     ${register.tail ? `seq ${register.tail.seq}, epoch ${register.tail.epoch}` : 'none'}`,
    `boundary      ${register.boundary}`,
    `tip           ${report.tip ? `seq ${report.tip.seq} (epoch ${report.tip.epoch})` : 'none'}`,
    `next start    ${report.nextSeq ?? 'exhausted'}`,
    `objects       ${report.listed} listed, ${report.chain.length} on the chain, ${report.orphans.length} orphans, ${report.excluded.length} excluded`,
    `sealed epochs ${register.sealed.map((s) => `${s.firstEpoch === s.lastEpoch ? s.lastEpoch : `${s.firstEpoch}-${s.lastEpoch}`}:${s.lastSeq ?? 'none'} (${s.reason})`).join(', ') || 'none'}`,
  ];
  if (report.failure)
    lines.push(`OPEN WOULD FAIL  ${report.failure.code}: ${report.failure.message}`);
  lines.push(
    '',
    ...table(
      ['REGION', 'LATEST', 'WATERMARK', 'ENTRIES', 'OBJECTS', 'BYTES'],
      report.regions.map((r) => [
        formatRegionId(r.regionId),
        String(r.latestId),
        String(r.watermark),
        String(r.entries),
        String(r.objects),
        String(r.bytes),
      ]),
    ),
  );
  return lines;
}
