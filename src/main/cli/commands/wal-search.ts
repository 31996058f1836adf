/**
 * `cairn wal search`: every region of a prefix searched at once (search.md). Rows of a
 * GreptimeDB prefix that pass `--where`, `--since`, `--until`; entries of a Cairn prefix whose
 * payload holds `--text`; within `--regions` and `--ids`, newest objects first or in id order,
 * stopping at `--limit`. Prints NDJSON (the row lines of replay --rows, or entry lines), CSV,
 * or with `--count` the hits per region. Exit 0 with hits, 1 without, 3 when damaged segments
 * were skipped (each named on stderr, as replay names them). Reads only.
 */
import type { Command } from 'commander';
import { openTargetReadOnly } from '../../engine/wal-read/read-side';
import { filterProblem } from '../../services/wal/search/search-match';
import {
  newSearchCounts,
  runSearch,
  searchRequestOfParts,
  type SearchCounts,
  type SearchRequest,
} from '../../services/wal/search/search-run';
import { formatRegionId } from '../../../shared/id-notation';
import { csvText } from '../../../shared/greptime/csv-cell';
import { hitLine, regionCountLine } from '../../../shared/search/search-hits';
import { isSearchInputProblem, searchPartsOf } from '../../../shared/search/search-request';
import { GT_FORMAT } from '../../engine/greptimedb/layout';
import type { AnyReadOnlyLog } from '../../engine/wal-read/read-side';
import { reportDamaged, toJsonText } from '../output';
import { withProgress } from '../progress';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';
import { collectFlag } from './replay-rows';
import { CsvHits, printCsvHits } from './search-csv';
import { ReplayDamage, withDamageFlags, type DamageFlags } from './replay-damage';
import { openWalReadTarget, withWalFlags, type WalOptions } from './wal-config';

type SearchOptions = WalOptions &
  DamageFlags & {
    where: string[];
    since?: string;
    until?: string;
    regions: string;
    ids: string;
    text?: string;
    limit?: string;
    format: string;
    count?: boolean;
    order: string;
  };

/** Exit code of a search that found nothing. */
const EXIT_NO_HITS = 1;

function limitOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,15}$/.test(text))
    throw new UsageError(`--limit must be a positive integer, got "${text}"`);
  return Number(text);
}

/** The request the flags make; UsageError for any flag that does not read. */
export function searchRequestOf(options: SearchOptions): {
  request: SearchRequest;
  regions: bigint[] | null;
} {
  if (options.format !== 'ndjson' && options.format !== 'csv')
    throw new UsageError(`--format must be ndjson or csv, got "${options.format}"`);
  if (options.holes === true && (options.format === 'csv' || options.count === true))
    throw new UsageError(
      '--holes writes hole records into NDJSON hits: not with --format csv or --count',
    );
  const parts = searchPartsOf({ ...options, limit: limitOf(options.limit) });
  if (isSearchInputProblem(parts)) throw new UsageError(`--${parts.flag}: ${parts.message}`);
  return { request: searchRequestOfParts(parts), regions: parts.regions };
}

interface Printer {
  line(text: string): void;
  flush(): void;
}

/** Lines gathered into writes of about 64 KiB. */
function stdoutPrinter(): Printer {
  let pending = '';
  const flush = (): void => {
    if (pending !== '') process.stdout.write(pending);
    pending = '';
  };
  return {
    line: (text) => {
      pending += `${text}\n`;
      if (pending.length >= 65_536) flush();
    },
    flush,
  };
}

function printCounts(
  out: Printer,
  log: AnyReadOnlyLog,
  regions: bigint[] | null,
  counts: SearchCounts,
  csv: boolean,
): void {
  const searched = regions ?? log.catalog.regions().map((summary) => summary.regionId);
  if (csv) out.line('region,regionU64,hits');
  for (const region of searched) {
    const hits = counts.hitsByRegion.get(region) ?? 0;
    out.line(
      csv
        ? [formatRegionId(region), region.toString(), String(hits)].map(csvText).join(',')
        : regionCountLine(region, hits),
    );
  }
}

export function registerWalSearchCommand(wal: Command): void {
  withDamageFlags(
    withWalFlags(
      wal
        .command('search')
        .description(
          'Search every region of a prefix: GreptimeDB rows by --where/--since/--until, Cairn payloads by --text; exit 0 with hits, 1 without, 3 when damaged segments were skipped',
        ),
    ),
  )
    .option(
      '--where <condition>',
      'GreptimeDB rows: key=value, key!=value, key~regex, key<number, key>number (repeatable)',
      collectFlag,
      [],
    )
    .option('--since <time>', 'rows whose time index is at or after this UTC time')
    .option('--until <time>', 'rows whose time index is before this UTC time')
    .option('--regions <list>', 'all, or region ids table:region or u64, comma-separated', 'all')
    .option('--ids <range>', 'FROM..TO entry ids, inclusive (either end may be left out)', '')
    .option('--text <text>', 'Cairn prefixes: entries whose payload holds this text')
    .option('--limit <n>', 'stop after this many hits')
    .option('--order <order>', 'ids (objects in id order) or newest (newest objects first)', 'ids')
    .option('--format <format>', 'ndjson or csv', 'ndjson')
    .option('--count', 'print only the hits per region')
    .action(
      runAction(async (options: SearchOptions) => {
        const { request, regions } = searchRequestOf(options);
        const csv = options.format === 'csv';
        const out = stdoutPrinter();
        const damage = new ReplayDamage(options, (record) => out.line(toJsonText(record)));
        const { io, link, target } = await openWalReadTarget(options);
        const problem = filterProblem(target.format, request.filter);
        if (problem !== null) throw new UsageError(problem);
        const counts = await withProgress('search', link, async () => {
          const log = await openTargetReadOnly(io, target);
          for (const region of regions ?? []) damage.checkRegion(log, region);
          const counts = newSearchCounts(log, request.scope);
          const kind = target.format === GT_FORMAT ? 'row' : 'entry';
          const csvHits = csv && !options.count ? new CsvHits() : null;
          const damaged = [];
          for await (const step of runSearch(io, log, request, damage.options, counts)) {
            damaged.push(...step.damaged);
            if (options.count) continue;
            if (csvHits !== null) csvHits.add(step.hits);
            else for (const hit of step.hits) out.line(hitLine(hit));
          }
          if (csvHits !== null)
            await printCsvHits(
              (text) => out.line(text),
              kind,
              csvHits,
              () => runSearch(io, log, request, { onCorruptedSegment: 'skip' }),
            );
          if (options.count) printCounts(out, log, regions, counts, csv);
          out.flush();
          reportDamaged(damaged);
          return counts;
        });
        if (counts.hits === 0) process.exitCode = EXIT_NO_HITS;
        damage.finish();
      }),
    );
}
