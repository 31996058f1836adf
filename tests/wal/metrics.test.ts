import { describe, expect, it } from 'vitest';
import {
  createWalMetrics,
  renderPrometheus,
  snapshotWalMetrics,
  WAL_METRIC_DEFINITIONS,
  type HistogramSnapshot,
} from '../../src/main/engine/wal/metrics';

describe('WAL metrics', () => {
  it('has an instrument for every metric wal.md names', () => {
    const names = Object.values(WAL_METRIC_DEFINITIONS).map((d) => d.name);
    for (const wanted of [
      'seal_to_durable_seconds',
      'append_ack_seconds',
      'fence_read_seconds',
      'object_bytes',
      'object_entries',
      'created_objects_total',
      'indexed_objects_total',
      'indexed_bytes_total',
      'recovery_seconds',
      'recovery_objects',
      'read_seconds',
      'create_conflicts_total',
      'create_failures_total',
      'poisoned',
      'skipped_segments_total',
      'stalled_appends_total',
      'stalled_seconds_total',
      'deleted_objects_total',
      'failed_deletes_total',
    ]) {
      expect(names).toContain(`cairn_wal_${wanted}`);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it('records and snapshots counters, gauges and histograms', () => {
    const metrics = createWalMetrics();
    metrics.createdObjects.inc();
    metrics.createdObjects.inc(2);
    metrics.createdObjects.inc(-5);
    metrics.poisoned.set(1);
    metrics.sealToDurableSeconds.observe(0.004);
    metrics.sealToDurableSeconds.observe(100);
    const snapshot = snapshotWalMetrics(metrics);
    expect(snapshot.createdObjects).toBe(3);
    expect(snapshot.poisoned).toBe(1);
    expect(snapshot.sealToDurableSeconds).toMatchObject({ sum: 100.004, count: 2 });
    const buckets = (snapshot.sealToDurableSeconds as HistogramSnapshot).buckets;
    expect(buckets.find((b) => b.le === 0.005)?.count).toBe(1);
    expect(buckets.find((b) => b.le === 30)?.count).toBe(1);
    expect(buckets[buckets.length - 1]).toEqual({ le: Number.POSITIVE_INFINITY, count: 2 });
  });

  it('renders the Prometheus text format with labels', () => {
    const metrics = createWalMetrics();
    metrics.indexedBytes.inc(1234);
    metrics.appendAckSeconds.observe(0.02);
    const text = renderPrometheus(metrics, { prefix: 'wal/nodes/1/generations/"0"' });
    expect(text).toContain('# TYPE cairn_wal_indexed_bytes_total counter\n');
    expect(text).toContain(
      'cairn_wal_indexed_bytes_total{prefix="wal/nodes/1/generations/\\"0\\""} 1234\n',
    );
    expect(text).toContain('# TYPE cairn_wal_append_ack_seconds histogram\n');
    expect(text).toContain(
      'cairn_wal_append_ack_seconds_bucket{prefix="wal/nodes/1/generations/\\"0\\"",le="0.025"} 1\n',
    );
    expect(text).toContain(
      'cairn_wal_append_ack_seconds_bucket{prefix="wal/nodes/1/generations/\\"0\\"",le="+Inf"} 1\n',
    );
    expect(text).toContain(
      'cairn_wal_append_ack_seconds_count{prefix="wal/nodes/1/generations/\\"0\\""} 1\n',
    );
    expect(text).toContain('# TYPE cairn_wal_poisoned gauge\n');
    expect(renderPrometheus(createWalMetrics())).toContain('cairn_wal_created_objects_total 0\n');
    for (const line of text.trimEnd().split('\n')) {
      expect(line).toMatch(/^(# (HELP|TYPE) \w+ .+|\w+(\{.*\})? [-+\w.]+)$/);
    }
  });
});
