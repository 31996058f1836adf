/**
 * `cairn wal replay`: one region streamed as NDJSON (entries, decoded entries or GreptimeDB's
 * rows, or CSV rows); read-only. Its own file so a replay never loads what obsolete and append
 * need (the epoch, the audit, the watermark requests).
 */
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { openTargetReadOnly } from '../../engine/wal-read/read-side';
import { toJsonText } from '../output';
import { withProgress } from '../progress';
import { runAction } from '../run-action';
import { CommandIndex } from './command-index';
import { entryIdOf, regionOf } from './id-flags';
import { ReplayDamage, withDamageFlags, type DamageFlags } from './replay-damage';
import {
  collectFlag,
  DecodedReplayPrinter,
  replayModeOf,
  type ReplayOutputOptions,
} from './replay-rows';
import { printReplay } from './replay-print';
import { openWalReadTarget, withAllowEmpty, withWalFlags, type WalOptions } from './wal-config';

type ReplayOptions = WalOptions &
  DamageFlags &
  ReplayOutputOptions & { region: string; from: string; data?: boolean };

export function registerWalReplayCommand(wal: Command): void {
  withDamageFlags(
    withAllowEmpty(
      withWalFlags(
        wal
          .command('replay')
          .description(
            'Stream one region as NDJSON: decoded GreptimeDB entries or rows, or {region,regionU64,id,idU64,size,sha256} (read-only); exit 3 when damaged segments were skipped',
          ),
      ),
    ),
  )
    .requiredOption('--region <id>', 'tableId:regionNumber or a decimal u64')
    .option('--from <id>', 'first entry id', '1')
    .option('--data', 'include the payload as base64')
    .option(
      '--decode',
      'one line per entry with its decoded payload (default on a GreptimeDB prefix)',
    )
    .option('--raw', 'payloads undecoded, as size and sha256 (default on a Cairn prefix)')
    .option('--rows', 'one line per decoded row: region, id, op, sequence, then its columns')
    .option('--format <format>', 'ndjson, or csv with --rows', 'ndjson')
    .option(
      '--where <condition>',
      'with --rows: key=value, key!=value or key~text (repeatable)',
      collectFlag,
      [],
    )
    .option('--since <time>', 'with --rows: rows whose time index is at or after this UTC time')
    .option('--until <time>', 'with --rows: rows whose time index is before this UTC time')
    .action(
      runAction(async (options: ReplayOptions) => {
        const region = regionOf(options.region);
        const from = entryIdOf('--from', options.from);
        // Hole records go where the printer puts them once there is one (`holeRecord`).
        let holeRecord = (text: string): unknown => process.stdout.write(text + '\n');
        const damage = new ReplayDamage(options, (record) => holeRecord(toJsonText(record)));
        const { io, link, target } = await openWalReadTarget(options);
        const mode = replayModeOf(options, target.format);
        await withProgress('replay', link, async () => {
          const index = await CommandIndex.open(io, target.prefix, target.format, true);
          const log = await openTargetReadOnly(io, target, index.scanOf(target.format)).finally(
            () => index.done(),
          );
          damage.checkRegion(log, region);
          const provider = { prefix: log.prefix, regionId: region };
          if (mode !== 'raw') {
            const printer = new DecodedReplayPrinter(mode, options, target.format);
            holeRecord = (text) => printer.holeRecord(text);
            const { onCorruptedSegment } = damage.options;
            await printReplay(printer, region, {
              first: () => log.read(provider, from, damage.options),
              again: () => log.read(provider, from, { onCorruptedSegment }),
            });
            return;
          }
          for await (const entry of log.read(provider, from, damage.options)) {
            const line: Record<string, bigint | string | number> = {
              region,
              id: entry.id,
              size: entry.data.length,
              sha256: createHash('sha256').update(entry.data).digest('hex'),
            };
            if (options.data) line.data = Buffer.from(entry.data).toString('base64');
            process.stdout.write(toJsonText(line) + '\n');
          }
        });
        damage.finish();
      }),
    );
}
