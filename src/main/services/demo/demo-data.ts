/**
 * "Generate demo data": writes a small but complete picture, so a new user sees every view
 * populated in one click — WAL regions with entries, an obsoleted range, a stopped and a
 * taken-over epoch, a late object of the taken-over epoch (stale), namespaces in both states
 * with placements, tiered segments in every state (under new topic ids), and a GreptimeDB
 * prefix (two instances, a late orphan, a reclaimed range). It goes through the same engine
 * and services as any operator action. It writes only where nothing is: every prefix and
 * namespace name it would use is checked first, and one already taken refuses the whole
 * (`DemoPlaceTaken`), before anything is written. Whether the store may get demo data at all
 * (embedded, empty, or confirmed by name) is `made-up-data-guard.ts`'s to say.
 */
import { randomUUID } from 'node:crypto';
import { CairnError } from '../../engine/errors';
import type { ObjectIo } from '../../engine/objectio/object-io';
import { encodeObject } from '../../engine/wal/format';
import { makeEntryId } from '../../engine/wal/ids';
import { objectKey } from '../../engine/wal/keys';
import { makeRegionId, type RegionId } from '../../engine/wal/provider';
import { ObjectStoreLogStore } from '../../engine/wal/store';
import type { NamespaceService } from '../namespaces/namespace-service';
import { writeGreptimeDemo } from './greptimedb-demo';
import { writeGreptimeMergedDemo } from './greptimedb-merged-demo';
import type { TieringService } from '../tiering/tiering-service';

export class DemoPlaceTakenError extends CairnError {
  constructor(connectionId: string, place: string) {
    super(
      'DemoPlaceTaken',
      `demo data is written only where nothing is, and connection ${connectionId} already holds ${place}: nothing was written`,
      { connectionId, place },
    );
  }
}

export interface DemoSummary {
  readonly walPrefixes: string[];
  readonly entries: number;
  readonly namespaces: number;
  readonly segments: number;
}

export interface DemoServices {
  readonly connections: { io(connectionId: string): Promise<{ io: ObjectIo; root: string }> };
  readonly namespaces: NamespaceService;
  readonly tiering: TieringService;
}

/** Where a GreptimeDB datanode's WAL in the chained layout sits in the demo, beside Cairn's `wal/`. */
const GREPTIME_DEMO_PREFIX = 'datanodes/1/epochs/8';
/** GreptimeDB main's merged layout, where a standalone datanode keeps it under `[wal] prefix`. */
const GREPTIME_MERGED_DEMO_PREFIX = 'datanodes/0/epochs/0';
const DEMO_NAMESPACES = ['orders', 'payments', 'inventory', 'shipping/eu-west'] as const;
const EXPLICIT_NAMESPACES = ['analytics/events', 'audit:ledger'] as const;

const DEMO_REGIONS: readonly RegionId[] = [1, 2, 3, 4].map((region) => makeRegionId(1, region));
const encoder = new TextEncoder();
/** Keep the history (no collection after the obsolete): the user can try a GC dry run on it. */
const DEMO_STORE_OPTIONS = { probe: false, gcAfterObsolete: false } as const;

export async function generateDemoData(
  services: DemoServices,
  connectionId: string,
): Promise<DemoSummary> {
  const { io, root } = await services.connections.io(connectionId);
  const walRoot = root === '' ? 'wal' : `${root.replace(/\/$/, '')}/wal`;
  const greptimePrefix =
    root === '' ? GREPTIME_DEMO_PREFIX : `${root.replace(/\/$/, '')}/${GREPTIME_DEMO_PREFIX}`;
  const mergedPrefix = `${walRoot}/${GREPTIME_MERGED_DEMO_PREFIX}`;
  const cairnPrefixes = [0, 1].map((generation) => `${walRoot}/nodes/0/generations/${generation}`);
  await checkPlacesFree(services, connectionId, io, [
    ...cairnPrefixes,
    greptimePrefix,
    mergedPrefix,
  ]);
  const entries =
    (await writeWalHistory(io, walRoot, 0)) + (await writeWalHistory(io, walRoot, 1, 60));
  const greptimeEntries =
    (await writeGreptimeDemo(io, greptimePrefix)) +
    (await writeGreptimeMergedDemo(io, mergedPrefix));
  const namespaces = await writeNamespaces(services.namespaces, connectionId);
  const segments = await writeSegments(services.tiering, connectionId);
  return {
    walPrefixes: [...cairnPrefixes, greptimePrefix, mergedPrefix],
    entries: entries + greptimeEntries,
    namespaces,
    segments,
  };
}

/** Refuses before any write when a prefix or a namespace name the demo uses holds anything. */
async function checkPlacesFree(
  services: DemoServices,
  connectionId: string,
  io: ObjectIo,
  prefixes: readonly string[],
): Promise<void> {
  for (const prefix of prefixes) {
    const taken = (await io.listPage(`${prefix}/`, { pageSize: 1 })).objects[0];
    if (taken !== undefined) throw new DemoPlaceTakenError(connectionId, taken.key);
  }
  for (const name of [...DEMO_NAMESPACES, ...EXPLICIT_NAMESPACES])
    if ((await services.namespaces.get(connectionId, name)) !== null)
      throw new DemoPlaceTakenError(connectionId, `namespace ${name}`);
}

/** Three epochs on one prefix: 1 stopped cleanly, 2 taken over by 3 (with an orphan), 3 stopped. */
async function writeWalHistory(
  io: ObjectIo,
  root: string,
  generation: number,
  perEpoch = 160,
): Promise<number> {
  const config = { root, nodeId: 0n, generation, flushIntervalMs: 10 };
  let written = 0;
  const first = await ObjectStoreLogStore.open(io, config, DEMO_STORE_OPTIONS);
  for (const region of DEMO_REGIONS)
    await first.createNamespace({ prefix: first.prefix, regionId: region });
  written += await appendOrders(first, perEpoch, 0);
  await first.stop();

  const second = await ObjectStoreLogStore.open(io, config, DEMO_STORE_OPTIONS);
  written += await appendOrders(second, perEpoch, written);
  const obsoleteRegion = DEMO_REGIONS[0]!;
  const provider = { prefix: second.prefix, regionId: obsoleteRegion };
  // Hide the older half of region 1:1: an obsoleted range the Regions view shows.
  await second.obsolete(
    provider,
    obsoleteRegion,
    await nthId(second, obsoleteRegion, Math.floor(perEpoch / 8)),
  );
  await landOrphan(io, second);
  // Epoch 3 opens while epoch 2 is live: epoch 2 is taken over (fenced), as a crashed node would be.
  const third = await ObjectStoreLogStore.open(io, config, DEMO_STORE_OPTIONS);
  await second.stop();
  written += await appendOrders(third, perEpoch / 2, written);
  await third.stop();
  return written;
}

async function appendOrders(
  store: ObjectStoreLogStore,
  count: number,
  offset: number,
): Promise<number> {
  const pending: Promise<unknown>[] = [];
  for (let index = 0; index < count; index += 1) {
    const region = DEMO_REGIONS[index % DEMO_REGIONS.length]!;
    const order = {
      order: offset + index + 1,
      region: `1:${(index % DEMO_REGIONS.length) + 1}`,
      amount: ((offset + index) * 37) % 1000,
      currency: 'EUR',
      note: `demo entry ${offset + index + 1}`,
    };
    const provider = { prefix: store.prefix, regionId: region };
    pending.push(
      store.appendBatch([store.entry(encoder.encode(JSON.stringify(order)), 0n, region, provider)]),
    );
  }
  await Promise.all(pending);
  return count;
}

/** The id of the region's n-th entry as a read sees it (read from the start). */
async function nthId(store: ObjectStoreLogStore, region: RegionId, n: number): Promise<bigint> {
  let seen = 0;
  for await (const entry of store.read({ prefix: store.prefix, regionId: region }, 1n)) {
    seen += 1;
    if (seen >= n) return entry.id;
  }
  return store.latestEntryId({ prefix: store.prefix, regionId: region });
}

/** An object that landed after its writer gave up on it: its link names a sequence never created. */
async function landOrphan(io: ObjectIo, store: ObjectStoreLogStore): Promise<void> {
  const seq = store.state().nextSeq + 3n;
  const region = DEMO_REGIONS[1]!;
  const { bytes } = encodeObject({
    seq,
    epoch: store.epoch,
    link: { seq: seq - 1n, epoch: store.epoch },
    segments: new Map([
      [region, [{ id: makeEntryId(seq, 1n), bytes: encoder.encode('{"orphan":true}') }]],
    ]),
  });
  await io.putIfAbsent(objectKey(store.prefix, seq), bytes);
}

async function writeNamespaces(
  namespaces: NamespaceService,
  connectionId: string,
): Promise<number> {
  for (const name of DEMO_NAMESPACES) await namespaces.register(connectionId, name, 'minted');
  const [events, ledger] = EXPLICIT_NAMESPACES;
  await namespaces.put(
    connectionId,
    events,
    { retentionDays: 30, compaction: 'daily', owners: ['data-platform'] },
    { region: 'eu-west-1', tier: 'warm' },
  );
  await namespaces.put(
    connectionId,
    ledger,
    { retentionDays: 3650, immutable: true },
    { node: 'node-2', pinned: true },
  );
  await namespaces.setPlacement(connectionId, 'orders', {
    node: 'node-1',
    region: 'eu-west-1',
    tier: 'hot',
  });
  await namespaces.deprecate(connectionId, 'inventory');
  return 6;
}

async function writeSegments(tiering: TieringService, connectionId: string): Promise<number> {
  const console = await tiering.console(connectionId);
  const orders = { topicId: randomUUID(), partition: 0, topic: 'orders' };
  const now = Date.now();
  const segment = (startOffset: number, endOffset: number, epochs: Array<[number, number]>) => ({
    ...orders,
    segmentId: randomUUID(),
    startOffset,
    endOffset,
    segmentLeaderEpochs: epochs.map(([epoch, start]) => ({ epoch, startOffset: start })),
    segmentSizeBytes: (endOffset - startOffset + 1) * 1024,
    brokerId: 1,
    maxTimestampMs: now,
  });
  const finished = [
    segment(0, 99, [[0, 0]]),
    segment(100, 199, [
      [0, 100],
      [1, 150],
    ]),
    segment(200, 299, [[1, 200]]),
  ];
  for (const added of finished) {
    await console.add(added);
    await console.update({ ...orders, segmentId: added.segmentId, state: 'COPY_SEGMENT_FINISHED' });
  }
  const copying = segment(300, 349, [[2, 300]]);
  await console.add(copying);
  const deleting = finished[0]!;
  await console.update({
    ...orders,
    segmentId: deleting.segmentId,
    state: 'DELETE_SEGMENT_STARTED',
  });
  const gone = segment(350, 399, [[2, 350]]);
  await console.add(gone);
  await console.update({ ...orders, segmentId: gone.segmentId, state: 'DELETE_SEGMENT_STARTED' });
  await console.update({ ...orders, segmentId: gone.segmentId, state: 'DELETE_SEGMENT_FINISHED' });
  const payments = { topicId: randomUUID(), partition: 3, topic: 'payments' };
  const paid = { ...segment(0, 499, [[0, 0]]), ...payments };
  await console.add(paid);
  await console.update({ ...payments, segmentId: paid.segmentId, state: 'COPY_SEGMENT_FINISHED' });
  await console.deletePartition({ ...payments, state: 'DELETE_PARTITION_MARKED' });
  return 6;
}
