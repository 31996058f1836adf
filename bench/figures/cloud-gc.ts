/**
 * Cloud lane figure: garbage collection of 2,000 objects through the lane's round trip -
 * requests sent by the pass (target <= 10: one open aside, a pass is a register CAS, a listing
 * and one DeleteObjects per 1,000 objects). A writer opens the prefix (not counted), makes its
 * whole region obsolete, and one pass is counted and timed: every request it sends, by kind.
 */
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { judged, type FigureResult } from '../harness';
import { CLOUD_OBJECTS, onCloudLane, timedSeconds, writeCloudChain } from './cloud-lane';
import { TimedObjectIo } from './timed-object-io';
import { BENCH_REGION, benchConfig, benchPrefix, providerOf, rounded } from './wal-bench';

const NODE = 720;

export async function cloudGc(): Promise<FigureResult[]> {
  return onCloudLane(async (lane) => {
    await writeCloudChain(lane, benchPrefix(NODE));
    const io = new TimedObjectIo(lane.remote());
    const store = await ObjectStoreLogStore.open(io, benchConfig(NODE), {
      probe: false,
      gcAfterObsolete: false,
    });
    try {
      await store.obsoleteAll(providerOf(store), BENCH_REGION);
      const before = new Map(io.requests);
      const beforeCount = io.requestCount;
      let deleted = 0;
      const seconds = await timedSeconds(async () => {
        const report = await store.gc();
        if (report.failure !== null) throw report.failure;
        deleted = report.objects.length;
      });
      if (deleted < CLOUD_OBJECTS) throw new Error(`the pass deleted ${deleted} objects`);
      const sent = io.requestCount - beforeCount;
      const byKind = [...io.requests].map(
        ([kind, count]) => `${kind} ${count - (before.get(kind) ?? 0)}`,
      );
      return [
        {
          figure: `cloud: GC of ${CLOUD_OBJECTS.toLocaleString('en-US')} objects, requests sent`,
          backend: lane.backend,
          value: sent,
          unit: 'requests',
          ...judged(sent, '<=', 10),
          detail: {
            deleted,
            seconds: rounded(seconds, 3),
            requests: byKind.join(', '),
            rttMs: lane.rttMs,
          },
        },
      ];
    } finally {
      await store.stop();
    }
  });
}
