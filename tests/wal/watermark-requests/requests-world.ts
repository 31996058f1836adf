/**
 * The world of the watermark-request model (requests-model.test.ts): real writers
 * (ObjectStoreLogStore) on one memory store behind their own FaultyObjectIo, a console that
 * submits requests through its own register store, and a reader. What the model remembers:
 * every acknowledged id, every request it saw accepted with its settlement once seen, every
 * direct obsolete, and which writer is the live holder. `check` judges the invariants of
 * docs/design/watermark-requests.md after every command.
 */
import { expect } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import type { EntryId } from '../../../src/main/engine/wal/ids';
import { readControl, registerStoreOf } from '../../../src/main/engine/wal/register';
import type { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import type { WatermarkRequest } from '../../../src/main/engine/wal/watermark-requests/fields';
import {
  readRequests,
  submitWatermarkRequest,
} from '../../../src/main/engine/wal/watermark-requests/submit';
import {
  entriesOf,
  openStore,
  PREFIX,
  providerOf,
  readAll,
  REGION_A,
  REGION_B,
  settle,
  until,
} from '../support/writer-harness';

export const REGIONS = [REGION_A, REGION_B] as const;
/** A watermark no writer of a model run reaches: its request must be rejected. */
export const FUTURE_ID = (1n << 40n) << 20n;

interface Holder {
  readonly store: ObjectStoreLogStore;
  readonly io: FaultyObjectIo;
  /** Crashed: every request of its io fails from then on. */
  dead: boolean;
}

interface AskedModel {
  readonly region: bigint;
  readonly watermark: EntryId;
  /** Whether the watermark was at or below an acknowledged id of the region when asked. */
  readonly reachable: boolean;
  settled: WatermarkRequest | null;
}

const REQUEST_POLL_MS = 15;

export class RequestsWorld {
  readonly memory = new MemoryObjectIo();
  private readonly consoleIo = new FaultyObjectIo(this.memory);
  private readonly console = registerStoreOf(this.consoleIo, PREFIX, { writerId: 'console' });
  private readonly holders: Holder[] = [];
  private readonly acked = new Map<bigint, EntryId[]>(REGIONS.map((r) => [r, []]));
  private readonly asked = new Map<string, AskedModel>();
  private readonly obsoleted = new Map<bigint, EntryId>();
  private failedAppends = 0;
  private requestCount = 0;

  get live(): Holder | undefined {
    const newest = this.holders[this.holders.length - 1];
    return newest?.dead === false ? newest : undefined;
  }

  async openHolder(): Promise<void> {
    const io = new FaultyObjectIo(this.memory);
    const store = await openStore(io, {}, { requestPollMs: REQUEST_POLL_MS });
    this.holders.push({ store, io, dead: false });
  }

  async append(region: bigint, count: number): Promise<void> {
    const holder = this.live;
    if (holder === undefined) return;
    const payloads = Array.from({ length: count }, (_, i) => `p${i}`);
    const result = await settle(
      holder.store.appendBatch(entriesOf(holder.store, region, ...payloads)),
    );
    if (!result.ok) {
      this.failedAppends += 1;
      return;
    }
    const last = result.value.lastEntryIds.get(region);
    if (last === undefined) throw new Error('an acknowledged append without its id');
    const ids = this.acked.get(region) ?? [];
    for (let k = count - 1; k >= 0; k -= 1) ids.push(last - BigInt(k));
    this.acked.set(region, ids);
  }

  /** Asks for `pick` (an index into the region's acknowledged ids) or a future id. */
  async submit(region: bigint, pick: number | 'future', loseResponse: boolean): Promise<void> {
    const ids = this.acked.get(region) ?? [];
    const target = pick === 'future' ? FUTURE_ID : ids[pick % Math.max(1, ids.length)];
    if (target === undefined) return;
    const id = `r${this.requestCount++}`;
    if (loseResponse)
      this.consoleIo.inject({
        op: 'putIfAbsent',
        key: /manifest/,
        kind: 'apply-then-lose',
        count: 1,
      });
    const asked = { id, region, watermark: target, requestedAtMs: 1, requestedBy: 'model' };
    const result = await settle(submitWatermarkRequest(this.console, PREFIX, asked));
    this.consoleIo.clear();
    if (!result.ok) {
      // A lost response is resolved by reading back: the request is found or truly absent.
      const view = await readRequests(registerStoreOf(this.memory, PREFIX, { writerId: 'reader' }));
      if (view?.log.some((request) => request.id === id) !== true) return;
    }
    this.asked.set(id, { region, watermark: target, reachable: pick !== 'future', settled: null });
  }

  async obsolete(region: bigint, pick: number): Promise<void> {
    const holder = this.live;
    const ids = this.acked.get(region) ?? [];
    const id = ids[pick % Math.max(1, ids.length)];
    if (holder === undefined || id === undefined) return;
    const result = await settle(
      holder.store.obsolete(providerOf(holder.store, region), region, id),
    );
    if (result.ok)
      this.obsoleted.set(
        region,
        id > (this.obsoleted.get(region) ?? 0n) ? id : (this.obsoleted.get(region) ?? 0n),
      );
  }

  async gc(): Promise<void> {
    const holder = this.live;
    if (holder !== undefined) await settle(holder.store.gc());
  }

  /** The holder's next register write is applied and its response lost (settled by read-back). */
  loseNextRegisterWrite(): void {
    this.live?.io.inject({ op: 'putIfAbsent', key: /manifest/, kind: 'apply-then-lose', count: 1 });
  }

  /** The live holder dies: nothing it does reaches the store any more. */
  crash(): void {
    const holder = this.live;
    if (holder === undefined) return;
    holder.io.inject({ op: 'any', kind: 'unavailable' });
    holder.dead = true;
  }

  /** A live writer applies everything pending (its poll or a fence read finds it). */
  async quiesce(): Promise<void> {
    if (this.live === undefined) return;
    await until(
      async () => (await this.view()).some((r) => r.state === 'pending') === false,
      'requests applied',
      5000,
    );
  }

  private async view(): Promise<readonly WatermarkRequest[]> {
    const view = await readRequests(registerStoreOf(this.memory, PREFIX, { writerId: 'reader' }));
    return view?.log ?? [];
  }

  /** The invariants, judged on what the store holds now. */
  async check(): Promise<void> {
    const log = await this.view();
    const byId = new Map(log.map((request) => [request.id, request]));
    for (const [id, model] of this.asked) {
      const held = byId.get(id);
      // Never lost silently: an accepted request stays in the log (the log keeps 32 settled).
      expect(held, `request ${id} lost`).toBeDefined();
      if (held === undefined) continue;
      if (model.settled !== null) {
        // Never applied twice, never re-settled.
        expect(held).toEqual(model.settled);
        continue;
      }
      if (held.state === 'pending') continue;
      model.settled = held;
      if (model.reachable) expect(held.state, `request ${id}`).toBe('applied');
      else expect(held.state, `request ${id}`).toBe('rejected');
      if (held.state === 'applied') expect(held.effective >= model.watermark).toBe(true);
    }
    const control = await readControl(registerStoreOf(this.memory, PREFIX, { writerId: 'reader' }));
    for (const region of REGIONS) {
      // Nothing hidden above what was asked.
      const watermark = control?.control.watermarks.get(region) ?? 0n;
      expect(watermark <= this.maxAsked(region), `watermark of ${region}`).toBe(true);
    }
    // A live writer is never fenced by a request.
    const live = this.live;
    if (live !== undefined) expect(live.store.state().poisoned).toBeNull();
  }

  private maxAsked(region: bigint): EntryId {
    let max = this.obsoleted.get(region) ?? 0n;
    for (const model of this.asked.values())
      if (model.region === region && model.settled?.state === 'applied' && model.watermark > max)
        max = model.watermark;
    return max;
  }

  /** A new holder opens (any dead one is taken over), applies what waits; every region replays
   * exactly its acknowledged ids above the final watermark. */
  async finish(): Promise<void> {
    if (this.live === undefined) await this.openHolder();
    await this.quiesce();
    await this.check();
    for (const model of this.asked.values()) expect(model.settled).not.toBeNull();
    const holder = this.live;
    if (holder === undefined) throw new Error('no holder');
    const control = await readControl(registerStoreOf(this.memory, PREFIX, { writerId: 'reader' }));
    for (const region of REGIONS) {
      const watermark = control?.control.watermarks.get(region) ?? 0n;
      const replayed = (await readAll(holder.store, region)).map((entry) => entry.id);
      const expected = (this.acked.get(region) ?? []).filter((id) => id > watermark);
      for (const id of replayed) expect(id > watermark).toBe(true);
      if (this.failedAppends === 0) expect(replayed).toEqual(expected);
      else expect(replayed).toEqual(expect.arrayContaining(expected));
    }
  }

  async dispose(): Promise<void> {
    await Promise.all(this.holders.map((holder) => settle(holder.store.stop())));
  }
}
