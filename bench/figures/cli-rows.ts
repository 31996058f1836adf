/**
 * Figures: `cairn wal replay --rows` (NDJSON) and `--rows --format csv` of a GreptimeDB region
 * at the speed of text (issue #50, item 4). The CLI's own printer (`DecodedReplayPrinter`, the
 * code `wal replay` runs) over a read-only open of a region of mixed columns (cli-rows-data.ts),
 * writing into /dev/null through the 64 KiB writes it makes, against the same objects read
 * bare: the region's segment ranges fetched (the GETs, no checksum, no framing) with the same
 * read-ahead, the same link and so the same concurrency the replay's reader has. Passes
 * alternate in a rotating order after untimed ones; process start is in neither side.
 * - local: output MB/s of `--rows` and of CSV, target >= 300 MB/s;
 * - S3: bare GETs time / rows time (and CSV's), target >= 0.8.
 * Both report rows/s, output MB/s and the ratio; the detail also times the same rows printed
 * the previous way (each payload decoded to its tables of cell texts, then `rowLine`) and the
 * region read bare through the reader (checksums and framing: `read(provider, 0)`), and, in
 * memory (best CPU of rounds: what the code costs when it has a core on this shared box), the
 * writer alone and the walk every decoder shares (`checkPayload`'s, nothing made), and how long
 * a pass had no GET in flight (whether the reads wait on the writing).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { printReplay } from '../../src/main/cli/commands/replay-print';
import { DecodedReplayPrinter } from '../../src/main/cli/commands/replay-rows';
import { GT_FORMAT } from '../../src/main/engine/greptimedb/layout';
import { openGtReadOnly, type GtReadOnlyLog } from '../../src/main/engine/greptimedb/read-only-log';
import { linkedIo, slotsOf } from '../../src/main/engine/objectio/link/linked-object-io';
import { readRange, type ObjectIo } from '../../src/main/engine/objectio/object-io';
import type { SegmentLocation } from '../../src/main/engine/wal/catalog';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { ReadAhead } from '../../src/main/engine/wal/read-ahead';
import { READ_AHEAD_BYTES } from '../../src/main/engine/wal/reader';
import { COUNT_ONLY, decodePayload } from '../../src/shared/greptime/decode/detect-payload';
import { walkWalEntry } from '../../src/shared/greptime/decode/walk-entry';
import { rowLine, rowsOfEntry } from '../../src/shared/greptime/replay-rows';
import { ByteOut } from '../../src/shared/greptime/row-bytes/byte-out';
import { RowBytesWriter } from '../../src/shared/greptime/row-bytes/row-writer';
import { judged, type FigureResult } from '../harness';
import { TimedObjectIo } from './timed-object-io';
import { writeMixedRegion } from './cli-rows-data';
import { onEachBackend, rounded } from './wal-bench';

const PREFIX = 'datanodes/6/epochs/1';
const REGION = makeRegionId(4096, 2);
/** 40 objects of 24 entries of 64 rows: 61,440 rows, ~6.6 MB of payload. */
const SHAPE = { objects: 40, entries: 24, rows: 64 };
const PASSES = { local: 8, s3: 5 } as const;
const WARMUP_PASSES = 2;
const LOCAL_MBPS = 300;
/** Rounds of the writer and of the walk alone over the payloads in memory; the best counts. */
const MEMORY_ROUNDS = 10;
const S3_RATIO = 0.8;

type PassName = 'gets' | 'read' | 'rows' | 'csv' | 'tables';
const PASS_NAMES: readonly PassName[] = ['gets', 'read', 'rows', 'csv', 'tables'];

/** What a pass did: the bytes it read or wrote. */
interface Work {
  bytes: number;
}

/** /dev/null, written as the CLI writes stdout: one write per 64 KiB gathered. */
class NullSink {
  private readonly fd = openSync('/dev/null', 'w');
  written = 0;

  readonly write = (bytes: Uint8Array): undefined => {
    this.written += writeSync(this.fd, bytes);
    return undefined;
  };

  close(): void {
    closeSync(this.fd);
  }
}

/** The region's segments fetched bare, in order, with the replay reader's read-ahead and link. */
async function getsPass(io: ObjectIo, log: GtReadOnlyLog): Promise<Work> {
  const slots = slotsOf(io);
  const locations = log.catalog.objectsForRegion(REGION, 1n);
  let at = 0;
  const ahead = new ReadAhead(
    {
      inFlight: () => slots.width,
      held: () => 2 * slots.width,
      heldBytes: READ_AHEAD_BYTES,
      bytesOf: (location: SegmentLocation) => location.length,
    },
    () => locations[at++],
    (location: SegmentLocation) => readRange(io, location.key, location.offset, location.length),
  );
  let bytes = 0;
  for (let next = ahead.take(); next !== undefined; next = ahead.take())
    bytes += (await next).length;
  return { bytes };
}

async function readPass(log: GtReadOnlyLog): Promise<Work> {
  let bytes = 0;
  for await (const entry of log.read({ prefix: log.prefix, regionId: REGION }, 0n))
    bytes += entry.data.length;
  return { bytes };
}

/** `cairn wal replay --rows [--format csv]`'s printing, into /dev/null. */
async function printerPass(log: GtReadOnlyLog, format: 'ndjson' | 'csv'): Promise<Work> {
  const sink = new NullSink();
  const provider = { prefix: log.prefix, regionId: REGION };
  const printer = new DecodedReplayPrinter(
    'rows',
    { rows: true, format, where: [] },
    GT_FORMAT,
    sink.write,
  );
  const read = () => log.read(provider, 0n);
  await printReplay(printer, REGION, { first: read, again: read });
  sink.close();
  return { bytes: sink.written };
}

/** The same lines the previous way: each payload's tables of cell texts, then `rowLine`. */
async function tablesPass(log: GtReadOnlyLog): Promise<Work> {
  const sink = new NullSink();
  const out = new ByteOut();
  for await (const entry of log.read({ prefix: log.prefix, regionId: REGION }, 0n)) {
    const decoded = decodePayload(entry.data, true);
    if (decoded.kind === 'wal-entry')
      for (const row of rowsOfEntry(REGION, entry.id, decoded.table)) {
        out.text(rowLine(row));
        out.byte(0x0a);
      }
    if (out.pos >= 65_536) sink.write(out.take());
  }
  sink.write(out.take());
  sink.close();
  return { bytes: sink.written };
}

/**
 * CPU milliseconds of `work` over every payload in memory, the best of MEMORY_ROUNDS (after one
 * warm round): what the box gives the code when it gets a core, beside the passes' wall time.
 */
function bestCpuMs(
  payloads: readonly Uint8Array[],
  work: (payload: Uint8Array, at: number) => void,
): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round <= MEMORY_ROUNDS; round++) {
    const cpu = process.cpuUsage();
    payloads.forEach(work);
    const used = process.cpuUsage(cpu);
    if (round > 0) best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

/** The writer (NDJSON lines into buffers handed over per 64 KiB) and the walk alone, in memory. */
function inMemory(payloads: readonly Uint8Array[]) {
  let out = new ByteOut();
  let writer = new RowBytesWriter(out, null);
  let written = 0;
  const writerMs = bestCpuMs(payloads, (payload, at) => {
    if (at === 0) {
      out = new ByteOut();
      writer = new RowBytesWriter(out, null);
      written = 0;
    }
    writer.entry(REGION, BigInt(at + 1) << 20n, payload, true);
    if (out.pos >= 65_536 || at === payloads.length - 1) written += out.take().length;
  });
  const walkMs = bestCpuMs(payloads, (payload) => walkWalEntry(payload, COUNT_ONLY));
  const payloadBytes = payloads.reduce((sum, payload) => sum + payload.length, 0);
  return {
    memoryWriterCpuMs: rounded(writerMs),
    memoryOutputMBPerCpuSecond: rounded(written / writerMs / 1000),
    memoryWalkCpuMs: rounded(walkMs),
    memoryWalkPayloadMBPerCpuSecond: rounded(payloadBytes / walkMs / 1000),
  };
}

function runPass(name: PassName, io: ObjectIo, log: GtReadOnlyLog): Promise<Work> {
  switch (name) {
    case 'gets':
      return getsPass(io, log);
    case 'read':
      return readPass(log);
    case 'rows':
      return printerPass(log, 'ndjson');
    case 'csv':
      return printerPass(log, 'csv');
    case 'tables':
      return tablesPass(log);
  }
}

export async function cliRows(): Promise<FigureResult[]> {
  return onEachBackend(async (storage, backend) => {
    const region = await writeMixedRegion(storage, { prefix: PREFIX, region: REGION, ...SHAPE });
    // The replay's reader and the bare GETs share one link: the same width of requests. The
    // store's requests are timed to tell how long a pass had none in flight.
    const timed = new TimedObjectIo(storage);
    const io = linkedIo(timed);
    const log = await openGtReadOnly(io, PREFIX);
    for (let warm = 0; warm < WARMUP_PASSES; warm++)
      for (const name of PASS_NAMES) await runPass(name, io, log);
    const totals = new Map(
      PASS_NAMES.map((name) => [name, { seconds: 0, cpuSeconds: 0, bytes: 0, idleMs: 0 }]),
    );
    const passes = PASSES[backend];
    for (let round = 0; round < passes; round++)
      for (let at = 0; at < PASS_NAMES.length; at++) {
        const name = PASS_NAMES[(at + round) % PASS_NAMES.length]!;
        const started = performance.now();
        const cpu = process.cpuUsage();
        timed.countIdleFromNow();
        const work = await runPass(name, io, log);
        const used = process.cpuUsage(cpu);
        const total = totals.get(name)!;
        total.idleMs += timed.idleSoFar();
        total.seconds += (performance.now() - started) / 1000;
        total.cpuSeconds += (used.user + used.system) / 1e6;
        total.bytes += work.bytes;
      }
    const t = (name: PassName) => totals.get(name)!;
    if (t('rows').bytes !== t('tables').bytes)
      throw new Error(`--rows wrote ${t('rows').bytes} bytes, the tables ${t('tables').bytes}`);
    const mbps = (name: PassName) => rounded(t(name).bytes / t(name).seconds / 1e6);
    const ms = (name: PassName) => rounded((t(name).seconds * 1000) / passes);
    // On a loaded box a pass waits for a core: output per second of the process's CPU beside.
    const cpuMbps = (name: PassName) => rounded(t(name).bytes / t(name).cpuSeconds / 1e6);
    const cpuMs = (name: PassName) => rounded((t(name).cpuSeconds * 1000) / passes);
    // A pass's time with no GET in flight: its writing while the link stood idle.
    const idleMs = (name: PassName) => rounded(t(name).idleMs / passes);
    const rowsPerSecond = (name: PassName) => Math.round((region.rows * passes) / t(name).seconds);
    const ratio = (name: PassName) => rounded(t('gets').seconds / t(name).seconds, 3);
    const memory = inMemory(region.payloads);
    const common = {
      rows: region.rows,
      payloadBytes: region.payloadBytes,
      passes,
      getsPassMs: ms('gets'),
      getsCpuMsPerPass: cpuMs('gets'),
      getsMBps: mbps('gets'),
      readPassMs: ms('read'),
      readRatio: ratio('read'),
      ...memory,
    };
    const figure = (name: 'rows' | 'csv', title: string): FigureResult => {
      const local = backend === 'local';
      const value = local ? mbps(name) : ratio(name);
      return {
        figure: `cli-rows: ${title} ${local ? 'output MB/s' : '/ bare GETs of the same objects'}`,
        backend,
        value,
        unit: local ? 'MB/s' : 'x',
        ...(local ? judged(value, '>=', LOCAL_MBPS) : judged(value, '>=', S3_RATIO)),
        detail: {
          ...common,
          outputBytes: t(name).bytes / passes,
          outputMBps: mbps(name),
          rowsPerSecond: rowsPerSecond(name),
          passMs: ms(name),
          cpuMsPerPass: cpuMs(name),
          linkIdleMsPerPass: idleMs(name),
          getsLinkIdleMsPerPass: idleMs('gets'),
          outputMBPerCpuSecond: cpuMbps(name),
          ratioToGets: ratio(name),
          ...(name === 'rows'
            ? {
                tablesOutputMBps: mbps('tables'),
                tablesRowsPerSecond: rowsPerSecond('tables'),
                tablesPassMs: ms('tables'),
                tablesCpuMsPerPass: cpuMs('tables'),
                tablesOutputMBPerCpuSecond: cpuMbps('tables'),
                tablesRatioToGets: ratio('tables'),
              }
            : {}),
        },
      };
    };
    return [figure('rows', 'wal replay --rows'), figure('csv', 'wal replay --rows --format csv')];
  });
}
