/**
 * `cairn wal fleet [--json]`: the console's Overview as a table - every prefix under `--root`
 * (Cairn's under ROOT/wal, GreptimeDB's anywhere) with its chain, tip, floor, lag (objects and
 * age), orphans, damage and State in the Overview's words - read once, read-only. Exit 1 when
 * any prefix is unhealthy, so a cron job can alert on the exit code alone.
 */
import type { Command } from 'commander';
import type { FleetRow } from '../../../shared/contract/wal';
import { lagText } from '../../../shared/lag-text';
import { readFleetOnce } from '../../services/wal/fleet/fleet-once';
import { fleetSourceOf } from '../../services/wal/fleet/fleet-source';
import { ReadModels } from '../../services/wal/read-model/read-models';
import { locatePrefix } from '../../services/wal/wal-locate';
import { openConnection, withConnectionFlags, type ConnectionOptions } from '../connection-flags';
import { EXIT_ERROR, printJson, printLines, table } from '../output';
import { runAction } from '../run-action';

/** The CLI holds no saved connection: one name for the store the flags open. */
const CLI_CONNECTION = 'cli';

/** What is wrong with a prefix: its State's reasons, the Overview's own words; none: healthy. */
function fleetRowProblems(row: FleetRow): string[] {
  return row.health.reasons.map((reason) => reason.text);
}

function tipText(row: FleetRow): string {
  if (row.tipSeq === null) return 'none';
  // GreptimeDB's merged layout has no epoch: its rows carry none.
  return row.tipEpoch === null ? `seq ${row.tipSeq}` : `seq ${row.tipSeq}, epoch ${row.tipEpoch}`;
}

function known(value: number | bigint | null): string {
  return value === null ? '-' : String(value);
}

function fleetLines(rows: readonly FleetRow[]): string[] {
  return table(
    [
      'PREFIX',
      'FORMAT',
      'OBJECTS',
      'BYTES',
      'TIP',
      'NEWEST OBJECT',
      'FLOOR',
      'LAG',
      'ORPHANS',
      'DAMAGED',
      'STATE',
    ],
    rows.map((row) => [
      row.prefix,
      row.format ?? 'empty',
      known(row.objects),
      known(row.bytes),
      row.state === 'error' ? '-' : tipText(row),
      row.newestObjectAtMs === null ? '-' : new Date(row.newestObjectAtMs).toISOString(),
      known(row.floor),
      lagText(row) || '-',
      known(row.orphans),
      known(row.damaged),
      row.health.text,
    ]),
  );
}

export function registerWalFleetCommand(wal: Command): void {
  withConnectionFlags(
    wal
      .command('fleet')
      .description(
        "Every prefix under --root with the Overview's columns, read once; exit 1 if any is unhealthy",
      ),
  )
    .option('--json', 'JSON output: {truncated, unhealthy, rows: [...{..., problems}]}')
    .action(
      runAction(async (options: ConnectionOptions & { json?: boolean }) => {
        const { io, link, root } = await openConnection(options);
        const source = fleetSourceOf(CLI_CONNECTION, {
          io: async () => ({ io, root }),
          locate: (connectionId, prefix) => locatePrefix(io, root, connectionId, prefix),
          models: new ReadModels(),
          held: () => false,
        });
        const { rows, truncated } = await readFleetOnce(source, link);
        const unhealthy = rows.filter((row) => fleetRowProblems(row).length > 0).length;
        if (truncated)
          process.stderr.write('cairn: the listing stopped at a bound; narrow it with --root\n');
        if (options.json)
          printJson({
            truncated,
            unhealthy,
            rows: rows.map((row) => ({ ...row, problems: fleetRowProblems(row) })),
          });
        else if (rows.length === 0)
          printLines([`no WAL prefix under ${root === '' ? 'the bucket root' : root}`]);
        else printLines(fleetLines(rows));
        if (unhealthy > 0) process.exitCode = EXIT_ERROR;
      }),
    );
}
