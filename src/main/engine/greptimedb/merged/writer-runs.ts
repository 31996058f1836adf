/**
 * The writer instances of a merged-layout prefix, as runs along the sequence: each store open
 * in GreptimeDB draws a new random 16-byte instance id and writes it into every object's
 * header, so consecutive objects with one id are one run and a restart starts a new one. An
 * id that comes back after another (A, B, A) means two processes wrote the prefix at once -
 * GreptimeDB itself does not detect it (its conditional creates only stop overwrites), so it
 * is named here with the sequences. Pure.
 */
import type { Seq } from '../../wal/ids';
import type { GtScannedObject } from '../scan';

export interface GtWriterRun {
  /** The 16-byte writer instance, as hex. */
  readonly writerInstance: string;
  readonly firstSeq: Seq;
  readonly lastSeq: Seq;
  readonly objects: number;
  /** The listing's dates of the run's first and last objects (null when the store gave none). */
  readonly firstAtMs: number | null;
  readonly lastAtMs: number | null;
}

/** An instance that wrote more than one run, with every run of it, ascending. */
export interface GtInterleavedWriter {
  readonly writerInstance: string;
  readonly runs: ReadonlyArray<{ readonly firstSeq: Seq; readonly lastSeq: Seq }>;
}

/** Runs of `objects` (ascending by sequence; objects of the chained layout are skipped). */
export function writerRunsOf(objects: readonly GtScannedObject[]): GtWriterRun[] {
  const runs: GtWriterRun[] = [];
  let open: { -readonly [K in keyof GtWriterRun]: GtWriterRun[K] } | null = null;
  for (const object of objects) {
    const id = object.writerInstance;
    if (id === null) continue;
    if (open !== null && open.writerInstance === id) {
      open.lastSeq = object.seq;
      open.objects += 1;
      open.lastAtMs = object.lastModifiedMs;
      continue;
    }
    open = {
      writerInstance: id,
      firstSeq: object.seq,
      lastSeq: object.seq,
      objects: 1,
      firstAtMs: object.lastModifiedMs,
      lastAtMs: object.lastModifiedMs,
    };
    runs.push(open);
  }
  return runs;
}

/** Instances that wrote more than one run: two processes on one prefix. */
export function interleavedWriters(runs: readonly GtWriterRun[]): GtInterleavedWriter[] {
  const byInstance = new Map<string, GtWriterRun[]>();
  for (const run of runs) {
    const own = byInstance.get(run.writerInstance);
    if (own === undefined) byInstance.set(run.writerInstance, [run]);
    else own.push(run);
  }
  return [...byInstance.values()]
    .filter((own) => own.length > 1)
    .map((own) => ({
      writerInstance: own[0]!.writerInstance,
      runs: own.map(({ firstSeq, lastSeq }) => ({ firstSeq, lastSeq })),
    }));
}

/** `two writers: 0a1b2c3d at 0-3, 8-9 (between them 4-7 by another)` in one line. */
export function interleavingText(
  interleaved: readonly GtInterleavedWriter[],
  runs: readonly GtWriterRun[],
): string {
  const span = (r: { firstSeq: Seq; lastSeq: Seq }): string =>
    r.firstSeq === r.lastSeq ? `${r.firstSeq}` : `${r.firstSeq}-${r.lastSeq}`;
  const named = interleaved.map((w) => {
    const others = runs.filter(
      (r) =>
        r.writerInstance !== w.writerInstance &&
        r.firstSeq > w.runs[0]!.firstSeq &&
        r.lastSeq < w.runs[w.runs.length - 1]!.lastSeq,
    );
    return `${w.writerInstance.slice(0, 8)} at ${w.runs.map(span).join(', ')} (between, ${others.map((r) => `${r.writerInstance.slice(0, 8)} at ${span(r)}`).join(', ')})`;
  });
  return `two writers: ${named.join('; ')}`;
}
