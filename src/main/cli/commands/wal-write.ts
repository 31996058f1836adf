/**
 * `cairn wal append | obsolete`. `append` is a load generator that always takes the
 * epoch; every acknowledged entry is written to the acks file with one synchronous write
 * before the next acknowledgement, so the file survives a SIGKILL (`replay`, which never
 * writes, is wal-replay.ts).
 * `obsolete` takes the epoch, which fences a live writer: it refuses a prefix whose register
 * was written in the last 30 s unless `--take-over` is given; `obsolete --dry-run` takes
 * nothing and says what it would hide and what the collection after it would delete;
 * `obsolete --request` takes nothing either: it asks the live writer to apply the watermark
 * (wal-obsolete-request.ts).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Command } from 'commander';
import type { RegionId } from '../../engine/wal/provider';
import { openReadOnly, type ReadOnlyLog } from '../../engine/wal/read-only-log';
import type { ObjectIo } from '../../engine/objectio/object-io';
import type { ObsoletePreview } from '../../../shared/contract/wal';
import { deletesAfterObsolete } from '../../services/wal/obsolete-deletes';
import { previewObsolete } from '../../services/wal/obsolete-preview';
import { ObjectStoreLogStore } from '../../engine/wal/store';
import { runLoad } from '../../services/wal/load-generator';
import { ObsoleteAboveLatestError } from '../../services/wal/errors';
import { checkNoLiveWriter } from '../../services/wal/live-writer';
import { directIo } from '../../engine/objectio/link';
import { countLine, showCount } from '../count-progress';
import { counted } from '../../../shared/plural';
import { printJson, printLines, toJsonText } from '../output';
import { runAction } from '../run-action';
import { UsageError } from '../usage-error';
import { entryIdOf, regionOf } from './id-flags';
import {
  openWalTarget,
  prefixOfConfig,
  withAllowEmpty,
  withWalFlags,
  type WalOptions,
} from './wal-config';
import { auditedCliAction, auditStoreCollections } from './cli-audit';
import { requestObsoleteFromCli } from './wal-obsolete-request';
import { CommandIndex } from './command-index';
import { CAIRN_FORMAT } from '../../engine/wal-read/format';
import type { ObjectStoreWalConfigInput } from '../../engine/wal/config';
import { dataDirOf } from '../data-dir-flag';
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';
import type { GcReport } from '../../engine/wal/gc';

function positiveInt(flag: string, text: string, max: number): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1 || value > max)
    throw new UsageError(`${flag} must be an integer from 1 to ${max}, got "${text}"`);
  return value;
}

interface AppendOptions extends WalOptions {
  regions: string;
  writers: string;
  count: string;
  size: string;
  ack: string;
  flushMs: string;
  acksOut?: string;
  printAcks?: boolean;
  json?: boolean;
}

export function registerWalWriteCommands(wal: Command): void {
  withWalFlags(
    wal
      .command('append')
      .description(
        'Load generator: append random entries, show progress and a summary; acknowledgements to --acks-out or, with --print-acks, stdout (takes the epoch)',
      ),
  )
    .option('--regions <n>', 'regions written (table 1, regions 1..n)', '4')
    .option('--writers <n>', 'concurrent appenders', '8')
    .option('--count <n>', 'entries to acknowledge in all', '1000')
    .option('--size <bytes>', 'payload size', '1024')
    .option('--ack <mode>', 'durable or enqueued', 'durable')
    .option('--flush-ms <ms>', 'flush interval', '20')
    .option(
      '--acks-out <file>',
      'append each acknowledgement as an NDJSON line {region,regionU64,id,idU64,sha256} to this file',
    )
    .option('--print-acks', 'print each acknowledgement (as --acks-out writes it) to stdout')
    .option('--json', 'print the summary as JSON')
    .action(runAction(appendAction));

  withAllowEmpty(
    withWalFlags(
      wal
        .command('obsolete')
        .description("Raise a region's obsolete watermark (takes the epoch: fences a live writer)"),
    ),
  )
    .requiredOption('--region <id>', 'tableId:regionNumber or a decimal u64')
    .requiredOption('--to <id>', "the new watermark; at most the region's latest id")
    .option('--take-over', 'fence a writer that may be live')
    .option(
      '--request',
      'take nothing: ask the writer holding the prefix to apply the watermark at its next register write (it is not fenced)',
    )
    .option('--wait <seconds>', 'with --request: wait this long for the writer to apply it')
    .option(
      '--dry-run',
      'take nothing: print what it would hide and what the collection after it would delete',
    )
    .option('--json', 'JSON output')
    .option('--no-cache', 'neither use nor fill the local index')
    .action(
      runAction(async (options: ObsoleteOptions) => {
        if (options.request === true && options.takeOver === true)
          throw new UsageError('--request takes no epoch: --take-over does not go with it');
        if (options.wait !== undefined && options.request !== true)
          throw new UsageError('--wait goes with --request');
        const { io, config } = await openWalTarget(options, {}, true);
        // Both opens (before the epoch and the writer's) recall from the local index: each
        // object is read at most once, and not at all when an earlier command (verify) read it.
        const index = await CommandIndex.open(
          io,
          prefixOfConfig(config),
          CAIRN_FORMAT,
          options.cache !== false,
        );
        try {
          await obsoleteAction(io, config, index, options);
        } finally {
          await index.done();
        }
      }),
    );
}

export type ObsoleteOptions = WalOptions & {
  region: string;
  to: string;
  takeOver?: boolean;
  dryRun?: boolean;
  request?: boolean;
  wait?: string;
  json?: boolean;
  cache?: boolean;
};

export async function obsoleteAction(
  io: ObjectIo,
  config: ObjectStoreWalConfigInput,
  index: CommandIndex,
  options: ObsoleteOptions,
): Promise<void> {
  const region = regionOf(options.region);
  const to = entryIdOf('--to', options.to);
  // Refused before the epoch is taken: bad input writes nothing, not even a start object.
  const log = await openReadOnly(io, config, { memo: index.tailMemo() });
  const prefix = log.prefix;
  const recorded = log.catalog.latestEntryId(region);
  if (to > recorded) throw new ObsoleteAboveLatestError(prefix, options.region, to, recorded);
  if (options.dryRun === true) {
    printObsoletePreview(
      await obsoleteDryRun(io, log, region, to, recorded),
      options.json === true,
    );
    return;
  }
  if (options.request === true) {
    const code = await requestObsoleteFromCli(io, log, region, to, options, dataDirOf(options));
    if (code !== 0) process.exitCode = code;
    return;
  }
  const trigger = { region: formatRegionId(region), to: formatEntryId(to) };
  const command = { action: 'cli wal obsolete', parameters: { prefix, ...trigger } };
  const dataDir = dataDirOf(options);
  const { epoch, collected } = await auditedCliAction(
    dataDir,
    { ...command, target: prefix },
    async () => {
      await checkNoLiveWriter(io, prefix, options.takeOver === true);
      const store = await ObjectStoreLogStore.open(io, config, {
        scanMemo: () => index.tailMemo(),
      });
      const audits = auditStoreCollections(store, command, io.endpoint, dataDir);
      try {
        const provider = { prefix, regionId: region };
        const latest = store.latestEntryId(provider); // The same check, after the open.
        if (to > latest) throw new ObsoleteAboveLatestError(prefix, options.region, to, latest);
        await store.obsolete(provider, region, to);
      } finally {
        await store.stop(); // the collection after the obsolete ends before stop returns
      }
      return { epoch: store.epoch, collected: collectedOf(await audits.settled()) };
    },
  );
  if (options.json) printJson({ prefix, region, watermark: to, epoch, collected });
  else
    process.stdout.write(
      `watermark of region ${formatRegionId(region)} raised to ${formatEntryId(to)} (epoch ${epoch}); garbage collection deleted ${collected.objects} objects (${collected.bytes} bytes)\n`,
    );
}

/** What an obsolete would hide, and what the collection after it would delete; writes nothing. */
async function obsoleteDryRun(
  io: ObjectIo,
  log: ReadOnlyLog,
  region: RegionId,
  to: bigint,
  latest: bigint,
): Promise<ObsoletePreview & { prefix: string; dryRun: true }> {
  const preview = previewObsolete(log.catalog, region, to, latest);
  const raises = new Map([[region, to]]);
  const deletes = await deletesAfterObsolete(
    io,
    log.prefix,
    log.catalog.objects(),
    log.control,
    raises,
  );
  return { prefix: log.prefix, dryRun: true, ...preview, deletes };
}

function printObsoletePreview(
  preview: ObsoletePreview & { prefix: string; dryRun: true },
  json: boolean,
): void {
  if (json) return printJson(preview);
  const region = formatRegionId(preview.region);
  const deletes = preview.deletes;
  const watermark = preview.watermark === 0n ? 'none' : formatEntryId(preview.watermark);
  printLines([
    preview.noChange
      ? `dry run: nothing changes, the watermark of region ${region} is already ${watermark}`
      : `dry run: raising the watermark of region ${region} from ${watermark} to ${formatEntryId(preview.id)} hides ${counted(preview.hiddenEntries, 'entry')} (${counted(preview.hiddenObjects, 'object')} wholly)`,
    deletes === null
      ? 'the garbage collection after it deletes no object'
      : `the garbage collection after it deletes ${deletes.objects} objects (${deletes.bytes} bytes), ${deletes.firstKey} to ${deletes.lastKey}; the boundary moves to ${deletes.boundary}`,
  ]);
}

/** What the collections after an obsolete deleted, in all. */
function collectedOf(reports: readonly GcReport[]): { objects: number; bytes: number } {
  return {
    objects: reports.reduce((sum, report) => sum + report.objects.length, 0),
    bytes: reports.reduce((sum, report) => sum + report.bytes, 0),
  };
}

const STDOUT_FD = 1;

/** Where acknowledgements go: a file (appended), stdout, or nowhere (the default). */
function ackSink(options: AppendOptions): number | null {
  if (options.printAcks === true) return STDOUT_FD;
  return options.acksOut === undefined ? null : openSync(options.acksOut, 'a');
}

async function appendAction(options: AppendOptions): Promise<void> {
  const spec = {
    regions: positiveInt('--regions', options.regions, 1_000_000),
    writers: positiveInt('--writers', options.writers, 100_000),
    count: positiveInt('--count', options.count, 1_000_000_000),
    size: positiveInt('--size', options.size, 64 * 1024 * 1024),
  };
  if (options.ack !== 'durable' && options.ack !== 'enqueued')
    throw new UsageError(`--ack must be durable or enqueued, got "${options.ack}"`);
  const flushIntervalMs = positiveInt('--flush-ms', options.flushMs, 3_600_000);
  if (options.acksOut !== undefined && options.printAcks === true)
    throw new UsageError('give either --acks-out or --print-acks, not both');
  const { io, config } = await openWalTarget(options, { ackMode: options.ack, flushIntervalMs });
  // A load generator measures the writer: it runs on the store itself, not on the link.
  const store = await ObjectStoreLogStore.open(directIo(io), config);
  const out = ackSink(options);
  let acknowledged = 0;
  const started = performance.now();
  const stopProgress = showCount(() =>
    countLine('append', 'entry', 'acknowledged', {
      done: acknowledged,
      total: spec.count,
      seconds: (performance.now() - started) / 1000,
    }),
  );
  const report = await runLoad(store, spec, (ack) => {
    acknowledged += 1;
    if (out !== null)
      writeSync(out, toJsonText({ region: ack.region, id: ack.id, sha256: ack.sha256 }) + '\n');
  }).finally(stopProgress);
  const stopped = await store.stop();
  if (out !== null && out !== STDOUT_FD) closeSync(out);
  const summary = {
    prefix: store.prefix,
    epoch: store.epoch,
    acknowledged: report.acknowledged,
    failed: report.failed,
    seconds: report.seconds,
    entriesPerSecond: report.acknowledged / report.seconds,
    lost: stopped.lost?.count ?? 0,
  };
  const text = options.json
    ? toJsonText(summary)
    : `${counted(summary.acknowledged, 'entry', 'entries')} acknowledged, ${summary.failed.toLocaleString('en-US')} failed in ${summary.seconds.toFixed(2)} s (${counted(Math.round(summary.entriesPerSecond), 'entry', 'entries')}/s) on ${summary.prefix}, epoch ${summary.epoch}`;
  // Acknowledgements on stdout keep it NDJSON: the summary then goes to stderr.
  (out === STDOUT_FD ? process.stderr : process.stdout).write(text + '\n');
  if (report.firstError !== undefined)
    throw report.firstError instanceof Error
      ? report.firstError
      : new Error(`append failed: ${JSON.stringify(report.firstError)}`);
  if (stopped.lost) throw stopped.lost;
}
