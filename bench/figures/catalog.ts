/**
 * Figure: catalog memory per object - an ObjectCatalog of 200,000 objects with k segments
 * each (k = 1 and 4), measured as the growth of V8 heap plus array-buffer memory (the
 * catalog keeps its columns in typed arrays, outside the JS heap) between two full GCs.
 * Reported; target <= 400 B + 100 B per segment.
 *
 * `npm run bench` runs node without --expose-gc, so the gc function is obtained at run time
 * (v8.setFlagsFromString + a fresh context); without it the figure would measure garbage.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ObjectCatalog } from '../../src/main/engine/wal/catalog';
import type { SegmentIndex } from '../../src/main/engine/wal/format';
import { makeEntryId } from '../../src/main/engine/wal/ids';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { judged, type FigureResult } from '../harness';
import { benchPrefix, rounded } from './wal-bench';

const OBJECTS = 200_000;
const SEGMENT_COUNTS = [1, 4] as const;
const ENTRIES_PER_SEGMENT = 64;
const SEGMENT_BYTES = 64 * 1024;

function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed !== undefined) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

function retainedBytes(gc: () => void): number {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function segmentsOf(seq: bigint, count: number): SegmentIndex[] {
  return Array.from({ length: count }, (_, region) => ({
    regionId: makeRegionId(1, region + 1),
    firstId: makeEntryId(seq, 1n),
    lastId: makeEntryId(seq, BigInt(ENTRIES_PER_SEGMENT)),
    entries: ENTRIES_PER_SEGMENT,
    offset: 52 + region * SEGMENT_BYTES,
    length: SEGMENT_BYTES,
    segmentCrc: 0x1234_5678,
  }));
}

function buildCatalog(segments: number): ObjectCatalog {
  const catalog = new ObjectCatalog(benchPrefix(800));
  for (let index = 0; index < OBJECTS; index++) {
    const seq = BigInt(index);
    catalog.index({
      seq,
      epoch: 1n,
      link: index === 0 ? null : { seq: seq - 1n, epoch: 1n },
      size: 52 + segments * SEGMENT_BYTES + 4 + 48 * segments + 64,
      segments: segmentsOf(seq, segments),
    });
  }
  return catalog;
}

function measure(gc: () => void, segments: number): FigureResult {
  const before = retainedBytes(gc);
  const catalog = buildCatalog(segments);
  const after = retainedBytes(gc);
  const perObject = (after - before) / catalog.objectCount;
  const bound = 400 + 100 * segments;
  return {
    figure: `catalog: memory per object (${segments} segment${segments === 1 ? '' : 's'} each)`,
    backend: 'memory',
    value: perObject,
    unit: 'B',
    ...judged(perObject, '<=', bound),
    detail: {
      objects: catalog.objectCount,
      segmentsPerObject: segments,
      bytes: after - before,
      perSegment: rounded(perObject / segments),
    },
  };
}

export async function catalog(): Promise<FigureResult[]> {
  const gc = collector();
  return SEGMENT_COUNTS.map((segments) => measure(gc, segments));
}
