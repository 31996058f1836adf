/**
 * `cairn wal fleet [--verify] [--max-age 24h] [--json]`: the console's Overview as a table -
 * every prefix under `--root` (Cairn's under ROOT/wal, GreptimeDB's anywhere) with its chain,
 * tip, floor, lag, orphans, damage, when it was last verified and its State in the Overview's
 * words - read once, read-only, with the console's memory: the data directory's damage ledger
 * (what the console's scrubs and replays found, and what every verify covered). A prefix not
 * read whole within the verify age is `unverified`, never healthy; `--verify` reads those whole
 * first and records what it finds in the same ledger. Each damaged object is one line naming
 * it. Exit codes (`exit-codes.ts`): 0 healthy, 1 a prefix unhealthy, 4 the store unreachable,
 * 5 no prefix at all (unless `--allow-empty`), 6 nothing wrong found but some prefix unverified.
 */
import type { Command } from 'commander';
import type { FleetRow } from '../../../shared/contract/wal';
import type { ObjectDamage } from '../../../shared/contract/wal-damage';
import { lagText, ageText } from '../../../shared/lag-text';
import { relativeTime } from '../../../shared/relative-time';
import { readFleetOnce } from '../../services/wal/fleet/fleet-once';
import { fleetSourceOf } from '../../services/wal/fleet/fleet-source';
import { DEFAULT_VERIFY_MAX_AGE_MS, parseAge } from '../../services/wal/scrub/coverage-view';
import { openConnection, withConnectionFlags, type ConnectionOptions } from '../connection-flags';
import { openConsoleMemory, type ConsoleMemory } from '../console-memory';
import { EXIT, exitFields, type ExitCause } from '../exit-codes';
import { printJson, printLines, table } from '../output';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';
import { verifyUnverified, type VerifiedPrefix } from './fleet-verify';

interface FleetOptions extends ConnectionOptions {
  json?: boolean;
  verify?: boolean;
  maxAge?: string;
  allowEmpty?: boolean;
}

/** What is wrong with a prefix: its State's reasons, the Overview's own words; none: healthy. */
function fleetRowProblems(row: FleetRow): string[] {
  return row.health.reasons.map((reason) => reason.text);
}

function tipText(row: FleetRow): string {
  if (row.tipSeq === null)
    // No tip: say why (recovery failed) rather than leave a bare "none".
    return row.openFailure === null ? 'none' : `none (${row.openFailure.code})`;
  // GreptimeDB's merged layout has no epoch: its rows carry none.
  return row.tipEpoch === null ? `seq ${row.tipSeq}` : `seq ${row.tipSeq}, epoch ${row.tipEpoch}`;
}

function known(value: number | bigint | null): string {
  return value === null ? '-' : String(value);
}

/** OBJECTS: the chain, or `0 of 7 listed` when recovery found no chain in what was listed. */
function objectsText(row: FleetRow): string {
  if (row.objects === null) return '-';
  if (row.tipSeq === null && (row.listed ?? 0) > row.objects)
    return `${row.objects} of ${row.listed ?? 0} listed`;
  return String(row.objects);
}

/** VERIFIED: when every object was last read whole, `never`, or `stale` beyond the age. */
function verifiedText(row: FleetRow, nowMs: number): string {
  const coverage = row.coverage;
  if (coverage === null) return '-';
  if (coverage.verifiedAtMs === null) return 'never';
  const when = relativeTime(coverage.verifiedAtMs, nowMs);
  return coverage.state === 'stale' ? `${when} (stale)` : when;
}

function fleetLines(rows: readonly FleetRow[]): string[] {
  const now = Date.now();
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
      'VERIFIED',
      'STATE',
    ],
    rows.map((row) => [
      row.prefix,
      row.format ?? 'empty',
      objectsText(row),
      known(row.bytes),
      row.state === 'error' ? '-' : tipText(row),
      row.newestObjectAtMs === null ? '-' : new Date(row.newestObjectAtMs).toISOString(),
      known(row.floor),
      lagText(row) || '-',
      known(row.orphans),
      known(row.damaged),
      verifiedText(row, now),
      row.health.text,
    ]),
  );
}

/** One line per damaged object: what a cron mail names. */
function damageLines(damage: ReadonlyMap<string, readonly ObjectDamage[]>): string[] {
  return [...damage].flatMap(([prefix, found]) =>
    found.map(
      (d) =>
        `DAMAGED  ${d.key}: ${d.check} check failed${d.detail === '' ? '' : ` (${d.detail})`} (prefix ${prefix}, found by ${d.source})`,
    ),
  );
}

/** The exit's cause: damage first, then a store that failed a read, unverified, nothing there. */
export function fleetCause(rows: readonly FleetRow[], allowEmpty: boolean): ExitCause {
  const unreachable = (row: FleetRow) =>
    row.error !== null && (row.error.code === 'Unavailable' || row.error.code === 'Backend');
  if (rows.some((row) => row.health.state === 'unhealthy' && !unreachable(row))) return 'unhealthy';
  if (rows.some(unreachable)) return 'unreachable';
  if (rows.some((row) => row.health.state !== 'healthy')) return 'unverified';
  if (rows.length === 0 && !allowEmpty) return 'notFound';
  return 'healthy';
}

function ledgerLine(memory: ConsoleMemory, rows: readonly FleetRow[], maxAgeMs: number): string {
  const damaged = rows.reduce((sum, row) => sum + (row.damaged ?? 0), 0);
  const verified = rows.filter((row) => row.coverage?.state === 'verified').length;
  const whose = memory.known
    ? `the console's connection ${memory.connectionId}`
    : `this store (${memory.connectionId}; no saved connection)`;
  const objects = `${damaged} damaged object${damaged === 1 ? '' : 's'}`;
  return `ledger   ${memory.ledgerPath} for ${whose}: ${objects}; ${verified} of ${rows.length} prefixes verified within ${ageText(maxAgeMs)}`;
}

async function fleetAction(options: FleetOptions): Promise<void> {
  const maxAgeMs =
    options.maxAge === undefined ? DEFAULT_VERIFY_MAX_AGE_MS : parseAge(options.maxAge);
  if (maxAgeMs === null)
    throw new UsageError(
      `--max-age must be a duration like 24h, 90m or 2d, got "${options.maxAge}"`,
    );
  const connection = await openConnection(options);
  const { io, link, root } = connection;
  const memory = await openConsoleMemory({ ...options, verifyMaxAgeMs: maxAgeMs }, connection);
  const damage = new Map<string, ObjectDamage[]>();
  const source = fleetSourceOf(memory.connectionId, {
    ...memory.fleet,
    damage: async (at, snapshot) => {
      const found = (await memory.fleet.damage?.(at, snapshot)) ?? [];
      if (found.length > 0) damage.set(at.prefix, found);
      return found;
    },
  });
  let verified: VerifiedPrefix[] = [];
  try {
    if (options.verify === true)
      verified = await verifyUnverified(memory, source, { io, root }, maxAgeMs);
    const { rows, truncated } = await readFleetOnce(source, link);
    const cause = fleetCause(rows, options.allowEmpty === true);
    if (truncated)
      process.stderr.write('cairn: the listing stopped at a bound; narrow it with --root\n');
    if (options.json)
      printJson({
        truncated,
        unhealthy: rows.filter((row) => row.health.state === 'unhealthy').length,
        unverified: rows.filter((row) => row.health.state === 'unverified').length,
        ...exitFields(cause),
        ledger: {
          path: memory.ledgerPath,
          connectionId: memory.connectionId,
          savedConnection: memory.known,
          maxAgeMs,
        },
        verified,
        rows: rows.map((row) => ({
          ...row,
          problems: fleetRowProblems(row),
          damage: damage.get(row.prefix) ?? [],
        })),
      });
    else if (rows.length === 0)
      printLines([`no WAL prefix under ${root === '' ? 'the bucket root' : root}`]);
    else
      printLines([...fleetLines(rows), ...damageLines(damage), ledgerLine(memory, rows, maxAgeMs)]);
    process.exitCode = EXIT[cause];
  } finally {
    // What the verify found is on disk before the command ends.
    await memory.findings.closeAll();
  }
}

export function registerWalFleetCommand(wal: Command): void {
  withConnectionFlags(
    wal
      .command('fleet')
      .description(
        "Every prefix under --root with the Overview's columns and the console's damage ledger, read once; exit 1 if any is unhealthy, 6 if any is unverified",
      ),
  )
    .option(
      '--verify',
      'first read whole every prefix not verified within --max-age (every CRC checked), recording what it finds in the damage ledger',
    )
    .option('--max-age <age>', 'how old a verify may be and still count (24h, 90m, 2d)', '24h')
    .option('--allow-empty', 'no prefix at all is an empty answer (exit 0), not exit 5')
    .option(
      '--json',
      'JSON output: {exitCode, cause, truncated, unhealthy, unverified, ledger, verified, rows: [...{..., problems, damage}]}',
    )
    .action(runAction(fleetAction));
}
