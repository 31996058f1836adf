/**
 * The WAL's metrics (wal.md, "Metrics"): one table of counters, gauges and histograms, the
 * instruments the store records into, a snapshot for the console and the Prometheus text
 * exposition. Recording is a field update, cheap on the write path; this module never
 * samples, schedules or reads a clock.
 */

type Kind = 'counter' | 'gauge' | 'histogram';

interface Definition {
  readonly kind: Kind;
  readonly name: string;
  readonly help: string;
  readonly buckets?: readonly number[];
}

/** Latency buckets, 1 ms to 30 s. */
const SECONDS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
] as const;
const BYTES = [1024, 16_384, 65_536, 262_144, 1_048_576, 4_194_304, 8_388_608, 33_554_432] as const;
const COUNTS = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000] as const;

export const WAL_METRIC_DEFINITIONS = {
  sealToDurableSeconds: {
    kind: 'histogram',
    name: 'cairn_wal_seal_to_durable_seconds',
    help: 'Time from sealing a batch to its object being durable and indexed.',
    buckets: SECONDS,
  },
  appendAckSeconds: {
    kind: 'histogram',
    name: 'cairn_wal_append_ack_seconds',
    help: 'Time from admitting an append to acknowledging it.',
    buckets: SECONDS,
  },
  fenceReadSeconds: {
    kind: 'histogram',
    name: 'cairn_wal_fence_read_seconds',
    help: 'Duration of durability-fence reads of the register.',
    buckets: SECONDS,
  },
  objectBytes: {
    kind: 'histogram',
    name: 'cairn_wal_object_bytes',
    help: 'Size of created WAL objects.',
    buckets: BYTES,
  },
  objectEntries: {
    kind: 'histogram',
    name: 'cairn_wal_object_entries',
    help: 'Entries per created WAL object.',
    buckets: COUNTS,
  },
  createdObjects: {
    kind: 'counter',
    name: 'cairn_wal_created_objects_total',
    help: 'WAL objects created.',
  },
  indexedObjects: {
    kind: 'counter',
    name: 'cairn_wal_indexed_objects_total',
    help: 'WAL objects indexed in the catalog.',
  },
  indexedBytes: {
    kind: 'counter',
    name: 'cairn_wal_indexed_bytes_total',
    help: 'Bytes of WAL objects indexed in the catalog.',
  },
  recoverySeconds: {
    kind: 'gauge',
    name: 'cairn_wal_recovery_seconds',
    help: 'Duration of the last recovery.',
  },
  recoveryObjects: {
    kind: 'gauge',
    name: 'cairn_wal_recovery_objects',
    help: 'Objects listed by the last recovery.',
  },
  readSeconds: {
    kind: 'histogram',
    name: 'cairn_wal_read_seconds',
    help: 'Duration of region reads.',
    buckets: SECONDS,
  },
  createConflicts: {
    kind: 'counter',
    name: 'cairn_wal_create_conflicts_total',
    help: 'Creates that found another object at their sequence.',
  },
  createFailures: {
    kind: 'counter',
    name: 'cairn_wal_create_failures_total',
    help: 'Creates that failed transiently.',
  },
  poisoned: { kind: 'gauge', name: 'cairn_wal_poisoned', help: '1 once the store is poisoned.' },
  skippedSegments: {
    kind: 'counter',
    name: 'cairn_wal_skipped_segments_total',
    help: 'Corrupted segments skipped by reads (holes).',
  },
  stalledAppends: {
    kind: 'counter',
    name: 'cairn_wal_stalled_appends_total',
    help: 'Appends held back by backpressure.',
  },
  stalledSeconds: {
    kind: 'counter',
    name: 'cairn_wal_stalled_seconds_total',
    help: 'Time appends spent held back by backpressure.',
  },
  gapReopens: {
    kind: 'counter',
    name: 'cairn_wal_gap_reopens_total',
    help: 'Times the writer re-opened itself under a new epoch because its start gap was spent.',
  },
  deletedObjects: {
    kind: 'counter',
    name: 'cairn_wal_deleted_objects_total',
    help: 'WAL objects deleted by garbage collection.',
  },
  failedDeletes: {
    kind: 'counter',
    name: 'cairn_wal_failed_deletes_total',
    help: 'Garbage-collection deletes that failed.',
  },
} as const satisfies Record<string, Definition>;

type Definitions = typeof WAL_METRIC_DEFINITIONS;
export type WalMetricName = keyof Definitions;

export class Counter {
  private total = 0;
  inc(by = 1): void {
    if (by > 0) this.total += by;
  }
  get value(): number {
    return this.total;
  }
}

export class Gauge {
  private current = 0;
  set(value: number): void {
    this.current = value;
  }
  get value(): number {
    return this.current;
  }
}

export interface HistogramSnapshot {
  /** Upper bounds and the cumulative count at or below each; the last bound is +Inf. */
  readonly buckets: ReadonlyArray<{ readonly le: number; readonly count: number }>;
  readonly sum: number;
  readonly count: number;
}

export class Histogram {
  private readonly counts: number[];
  private total = 0;
  private observations = 0;

  constructor(readonly bounds: readonly number[]) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(value: number): void {
    // A plain loop: this runs once per acknowledged append, and a callback allocates a closure.
    let at = 0;
    while (at < this.bounds.length && value > this.bounds[at]!) at += 1;
    this.counts[at] = (this.counts[at] ?? 0) + 1;
    this.total += value;
    this.observations += 1;
  }

  snapshot(): HistogramSnapshot {
    let cumulative = 0;
    const buckets = [...this.bounds, Number.POSITIVE_INFINITY].map((le, i) => {
      cumulative += this.counts[i] ?? 0;
      return { le, count: cumulative };
    });
    return { buckets, sum: this.total, count: this.observations };
  }
}

type InstrumentOf<K extends Kind> = K extends 'histogram'
  ? Histogram
  : K extends 'counter'
    ? Counter
    : Gauge;

export type WalMetrics = { readonly [N in WalMetricName]: InstrumentOf<Definitions[N]['kind']> };

function instrumentFor(definition: Definition): Counter | Gauge | Histogram {
  if (definition.kind === 'histogram') return new Histogram(definition.buckets ?? []);
  return definition.kind === 'counter' ? new Counter() : new Gauge();
}

export function createWalMetrics(): WalMetrics {
  const entries = Object.entries(WAL_METRIC_DEFINITIONS).map(([name, definition]) => [
    name,
    instrumentFor(definition),
  ]);
  return Object.fromEntries(entries) as WalMetrics;
}

export type WalMetricsSnapshot = { readonly [N in WalMetricName]: number | HistogramSnapshot };

/** Plain values for the console. */
export function snapshotWalMetrics(metrics: WalMetrics): WalMetricsSnapshot {
  const names = Object.keys(WAL_METRIC_DEFINITIONS) as WalMetricName[];
  const entries = names.map((name) => {
    const instrument: Counter | Gauge | Histogram = metrics[name];
    return [
      name,
      instrument instanceof Histogram ? instrument.snapshot() : instrument.value,
    ] as const;
  });
  return Object.fromEntries(entries) as WalMetricsSnapshot;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelText(labels: Readonly<Record<string, string>>): string {
  const pairs = Object.entries(labels).map(([name, value]) => `${name}="${escapeLabel(value)}"`);
  return pairs.length === 0 ? '' : `{${pairs.join(',')}}`;
}

function numberText(value: number): string {
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return Number.isNaN(value) ? 'NaN' : String(value);
}

function histogramLines(
  name: string,
  snapshot: HistogramSnapshot,
  labels: Readonly<Record<string, string>>,
): string[] {
  const lines = snapshot.buckets.map(
    (bucket) =>
      `${name}_bucket${labelText({ ...labels, le: numberText(bucket.le) })} ${bucket.count}`,
  );
  lines.push(`${name}_sum${labelText(labels)} ${numberText(snapshot.sum)}`);
  lines.push(`${name}_count${labelText(labels)} ${snapshot.count}`);
  return lines;
}

/** The Prometheus text exposition (format 0.0.4) of every WAL metric, with `labels` on each sample. */
export function renderPrometheus(
  metrics: WalMetrics,
  labels: Readonly<Record<string, string>> = {},
): string {
  const names = Object.keys(WAL_METRIC_DEFINITIONS) as WalMetricName[];
  const lines = names.flatMap((key) => {
    const definition: Definition = WAL_METRIC_DEFINITIONS[key];
    const instrument: Counter | Gauge | Histogram = metrics[key];
    const samples =
      instrument instanceof Histogram
        ? histogramLines(definition.name, instrument.snapshot(), labels)
        : [`${definition.name}${labelText(labels)} ${numberText(instrument.value)}`];
    return [
      `# HELP ${definition.name} ${definition.help}`,
      `# TYPE ${definition.name} ${definition.kind}`,
      ...samples,
    ];
  });
  return `${lines.join('\n')}\n`;
}
