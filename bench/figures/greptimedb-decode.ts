/**
 * Figure: replay of a GreptimeDB region with each payload decoded (a `WalEntry` decoded and
 * turned into its tables of exact cell texts, what `cairn wal replay --decode` / `--rows` and
 * the console's replay do) / the same replay handing out payloads undecoded. Both rates count
 * the payload bytes of the same passes over the same read-only open; passes alternate after
 * `WARMUP_PASSES` untimed ones of each. Target >= 0.8: decoding must not be what an SRE waits
 * for. The detail reports the decoder alone on payloads in memory (`decodeMBps`: to typed
 * values; `tableMBps`: to cell texts; `rowLinesMBps`: to `--rows` NDJSON lines) and how much
 * of a decoded pass the engine's thread was busy.
 */
import { performance as nodePerformance } from 'node:perf_hooks';
import { decodeWalEntry } from '../../src/shared/greptime/decode/decode-entry';
import { decodePayload } from '../../src/shared/greptime/decode/detect-payload';
import { entryTable } from '../../src/shared/greptime/decode/entry-table';
import { openGtReadOnly } from '../../src/main/engine/greptimedb/read-only-log';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { objectKey } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { encodeGreptimeObject } from '../../src/main/services/demo/greptimedb-demo';
import { metricsBatch } from '../../src/main/services/demo/metrics-entries';
import { rowLine, rowsOfEntry } from '../../src/shared/greptime/replay-rows';
import { judged, timedPool, type FigureResult } from '../harness';
import { onEachBackend, rounded } from './wal-bench';

const PREFIX = 'datanodes/5/epochs/1';
const REGION = makeRegionId(2048, 0);
/** 48 objects of 24 entries of 64 rows (~4.3 KB an entry, ~5 MB in all). */
const OBJECTS = 48;
const ENTRIES_PER_OBJECT = 24;
const ROWS_PER_ENTRY = 64;
const PASSES = { local: 12, s3: 3 } as const;
const WARMUP_PASSES = 3;
/** Decoder-only passes over the payloads in memory. */
const MEMORY_PASSES = 20;

async function writePrefix(io: ObjectIo): Promise<Uint8Array[]> {
  const payloads: Uint8Array[] = [];
  for (let seq = 0; seq < OBJECTS * ENTRIES_PER_OBJECT; seq++)
    payloads.push(metricsBatch(ROWS_PER_ENTRY, seq, BigInt(seq * ROWS_PER_ENTRY)));
  await timedPool(OBJECTS, 8, async (index) => {
    const seq = BigInt(index);
    const own = payloads.slice(index * ENTRIES_PER_OBJECT, (index + 1) * ENTRIES_PER_OBJECT);
    const object = encodeGreptimeObject({
      seq,
      epoch: 1n,
      prev: seq === 0n ? null : { seq: seq - 1n, epoch: 1n },
      reclaimBoundary: 0n,
      regions: [[REGION, own]],
    });
    await io.putIfAbsent(objectKey(PREFIX, seq), object);
  });
  return payloads;
}

/** Seconds for `passes` runs of `work` over every payload in memory. */
function memoryRate(payloads: readonly Uint8Array[], work: (payload: Uint8Array) => void): number {
  for (const payload of payloads) work(payload);
  const bytes = payloads.reduce((sum, payload) => sum + payload.length, 0);
  const started = performance.now();
  for (let pass = 0; pass < MEMORY_PASSES; pass++) for (const payload of payloads) work(payload);
  return (bytes * MEMORY_PASSES) / ((performance.now() - started) / 1000) / 1e6;
}

export async function greptimeDecode(): Promise<FigureResult[]> {
  return onEachBackend(async (io, backend) => {
    const payloads = await writePrefix(io);
    const log = await openGtReadOnly(io, PREFIX);
    const provider = { prefix: log.prefix, regionId: REGION };
    const pass = async (decode: boolean) => {
      let bytes = 0;
      let rows = 0;
      const started = performance.now();
      const loop = nodePerformance.eventLoopUtilization();
      for await (const entry of log.read(provider, 0n)) {
        bytes += entry.data.length;
        if (!decode) continue;
        const decoded = decodePayload(entry.data, true);
        if (decoded.kind === 'wal-entry')
          rows += decoded.table.mutations.reduce((sum, m) => sum + m.rows.length, 0);
      }
      const busyMs = nodePerformance.eventLoopUtilization(loop).active;
      return { seconds: (performance.now() - started) / 1000, bytes, rows, busyMs };
    };
    for (let warm = 0; warm < WARMUP_PASSES; warm++) {
      await pass(false);
      await pass(true);
    }
    let raw = 0;
    let decoded = 0;
    let bytes = 0;
    let rows = 0;
    let decodedBusyMs = 0;
    for (let at = 0; at < PASSES[backend]; at++) {
      raw += (await pass(false)).seconds;
      const timed = await pass(true);
      decoded += timed.seconds;
      bytes += timed.bytes;
      rows += timed.rows;
      decodedBusyMs += timed.busyMs;
    }
    if (rows !== PASSES[backend] * payloads.length * ROWS_PER_ENTRY)
      throw new Error(`decoded ${rows} rows, expected every one`);
    const ratio = raw / decoded;
    const passes = PASSES[backend];
    return [
      {
        figure: 'greptimedb-decode: region replay with payloads decoded / undecoded (same passes)',
        backend,
        value: ratio,
        unit: 'x',
        ...judged(ratio, '>=', 0.8),
        detail: {
          entries: payloads.length,
          rowsPerEntry: ROWS_PER_ENTRY,
          payloadBytes: bytes / passes,
          passes,
          rawReplayMBps: rounded(bytes / raw / 1e6),
          decodedReplayMBps: rounded(bytes / decoded / 1e6),
          decodedPassMs: rounded((decoded * 1000) / passes),
          engineThreadMsPerDecodedPass: rounded(decodedBusyMs / passes),
          decodeMBps: rounded(memoryRate(payloads, (p) => decodeWalEntry(p))),
          tableMBps: rounded(memoryRate(payloads, (p) => decodePayload(p, true))),
          rowLinesMBps: rounded(
            memoryRate(payloads, (p) => {
              const decodedEntry = decodeWalEntry(p);
              if (!decodedEntry.ok) return;
              for (const row of rowsOfEntry(REGION, 1n, entryTable(decodedEntry.entry)))
                rowLine(row);
            }),
          ),
        },
      },
    ];
  });
}
