/** `cairn wal ls | inspect | verify`: read-only views of WAL prefixes; they never write. */
import type { Command } from 'commander';
import { inspectPrefix, listPrefixes, type InspectReport } from '../../engine/wal/inspect';
import { formatRegionId } from '../../engine/wal/region-id';
import { verifyPrefix } from '../../engine/wal/verify';
import { withConnectionFlags, type ConnectionOptions } from '../connection-flags';
import { printJson, printLines, table } from '../output';
import { runAction } from '../run-action';
import { openWalTarget } from './wal-config';

type JsonOption = ConnectionOptions & { json?: boolean };

export function registerWalReadCommands(wal: Command): void {
  withConnectionFlags(
    wal.command('ls').description('WAL prefixes (node, generation) under the root'),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: JsonOption) => {
        const { io, root } = await openWalTarget(options);
        const prefixes = await listPrefixes(io, root);
        if (options.json) printJson(prefixes);
        else
          printLines(
            table(
              ['NODE', 'GENERATION', 'PREFIX'],
              prefixes.map((p) => [String(p.nodeId), String(p.generation), p.prefix]),
            ),
          );
      }),
    );

  withConnectionFlags(
    wal
      .command('inspect')
      .description(
        'Recover a prefix read-only: tip, next sequence, objects, orphans, regions, writer',
      ),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: JsonOption) => {
        const { io, config } = await openWalTarget(options);
        const report = await inspectPrefix(io, config);
        if (options.json) printJson(report);
        else printLines(describeInspect(report));
        if (report.failure) process.exitCode = 1;
      }),
    );

  withConnectionFlags(
    wal
      .command('verify')
      .description('Read every object whole and check every CRC; exit 1 if any is damaged'),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: JsonOption) => {
        const { io, config } = await openWalTarget(options);
        const report = await verifyPrefix(io, config);
        if (options.json) printJson(report);
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
    `prefix        ${report.prefix}`,
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
