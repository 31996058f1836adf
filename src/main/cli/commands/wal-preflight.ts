/**
 * `cairn wal preflight --prefix P [--json]`: the verdict GreptimeDB's open would reach on a
 * GreptimeDB prefix, one line per region - `opens`, `opens with holes` (which; and where
 * `on_corrupted_segment = fail` would stop), or `fails at entry seq:position of object K` with
 * the decoder's reason. Exit 0 when every region opens clean, 3 when some open only by skipping
 * damaged segments (as replay's holes), 1 when any region fails. Read-only.
 */
import type { Command } from 'commander';
import { preflightPrefix, type PreflightReport } from '../../services/wal/preflight/preflight';
import { preflightLine } from '../../services/wal/preflight/preflight-lines';
import { EXIT_ERROR, printJson, printLines } from '../output';
import { withProgress } from '../progress';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';
import { EXIT_HOLES } from './replay-damage';
import { openWalReadTarget, withWalFlags, type WalOptions } from './wal-config';

function exitCodeOf(report: PreflightReport): number {
  if (report.failure !== null || report.regions.some((r) => r.open.kind.startsWith('fails')))
    return EXIT_ERROR;
  return report.allOpen ? 0 : EXIT_HOLES;
}

export function registerWalPreflightCommand(wal: Command): void {
  withWalFlags(
    wal
      .command('preflight')
      .description(
        "What GreptimeDB's open of a GreptimeDB prefix would do, per region: recovery, each region's read (skip and fail), each entry decoded as a WalEntry",
      ),
  )
    .option('--json', 'JSON output')
    .action(
      runAction(async (options: WalOptions & { json?: boolean }) => {
        const { io, link, target } = await openWalReadTarget(options);
        if (target.format !== 'greptimedb-v1')
          throw new UsageError(
            `${target.prefix} is not a GreptimeDB prefix: preflight reads GreptimeDB's open`,
          );
        const report = await withProgress('preflight', link, () =>
          preflightPrefix(io, target.prefix),
        );
        if (options.json) printJson(report);
        else
          printLines([
            ...(report.failure === null
              ? []
              : [`GREPTIMEDB DOES NOT OPEN  ${report.failure.code}: ${report.failure.message}`]),
            ...report.regions.map(preflightLine),
          ]);
        process.exitCode = exitCodeOf(report);
      }),
    );
}
