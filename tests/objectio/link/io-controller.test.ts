/**
 * IoController on a clock of its own: slots granted first come, first served within the
 * limit and the memory budget; a round of unstretched answers that filled the limit widens
 * it; an `Unavailable` answer halves it; the link's p50 / p99 and rate come from the answers.
 */
import { describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../src/main/engine/objectio/errors';
import { IoController, type IoSlot } from '../../../src/main/engine/objectio/link';

function controller(options: Partial<ConstructorParameters<typeof IoController>[0]> = {}) {
  const clock = { ms: 0 };
  const io = new IoController({
    floor: 2,
    initial: 4,
    ceiling: 64,
    memoryBytes: 1_000,
    now: () => clock.ms,
    ...options,
  });
  return { io, clock };
}

/** Whether `promise` settled by now (after the microtasks queued so far). */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

describe('IoController', () => {
  it('grants at most its limit at once, in the order asked', async () => {
    const { io } = controller();
    const granted: IoSlot[] = [];
    for (let i = 0; i < 4; i++) granted.push(await io.acquire({ kind: 'read' }));
    const order: number[] = [];
    const fifth = io.acquire({ kind: 'read' }).then((slot) => (order.push(5), slot));
    const sixth = io.acquire({ kind: 'read' }).then((slot) => (order.push(6), slot));
    expect(await settled(fifth)).toBe(false);
    expect(io.stats()).toMatchObject({ inFlight: 4, waiting: 2, limit: 4 });
    granted[0]!.release();
    granted[0]!.release(); // a second release changes nothing
    expect(await settled(fifth)).toBe(true);
    expect(await settled(sixth)).toBe(false);
    granted[1]!.release();
    await sixth;
    expect(order).toEqual([5, 6]);
    expect(io.stats()).toMatchObject({ inFlight: 4, waiting: 0 });
  });

  it('holds answers in flight within its memory budget; a larger read runs alone', async () => {
    const { io } = controller();
    const first = await io.acquire({ kind: 'read', bytes: 600 });
    const second = io.acquire({ kind: 'read', bytes: 600 });
    expect(await settled(second)).toBe(false);
    first.release();
    (await second).release();
    const huge = await io.acquire({ kind: 'read', bytes: 5_000 });
    const small = io.acquire({ kind: 'read', bytes: 1 });
    expect(await settled(small)).toBe(false);
    huge.release();
    expect(await settled(small)).toBe(true);
  });

  it('widens after a round of unstretched answers that filled its limit', async () => {
    const { io, clock } = controller();
    const widths = [io.width];
    for (let round = 0; round < 3; round++) {
      // At least a round's answers (16), each taking the same 50 ms: the link has room.
      const waiting = Array.from({ length: Math.max(16, io.width) }, () =>
        io.acquire({ kind: 'read', bytes: 10 }),
      );
      while (waiting.length > 0) {
        const granted = await grantedSoFar(waiting);
        clock.ms += 50;
        for (const slot of granted) slot.release();
      }
      widths.push(io.width);
    }
    expect(widths).toEqual([4, 8, 16, 32]);
  });

  it("doubles through its first round's stretched answers, then judges the next", async () => {
    const { io, clock } = controller();
    const widths = [io.width];
    for (let round = 0; round < 2; round++) {
      // 16 answers: the first at the round trip (50 ms), the rest three times it (new
      // sockets' handshakes on the first round; a queue on the second).
      const waiting = Array.from({ length: 16 }, () => io.acquire({ kind: 'read', bytes: 10 }));
      let answered = 0;
      while (waiting.length > 0) {
        const granted = await grantedSoFar(waiting);
        const base = clock.ms;
        for (const slot of granted) {
          clock.ms = base + (answered++ === 0 ? 50 : 150);
          slot.release();
        }
      }
      widths.push(io.width);
    }
    expect(widths).toEqual([4, 8, 10]);
  });

  it('halves its limit when the store answers Unavailable', async () => {
    const { io } = controller({ initial: 16 });
    const slot = await io.acquire({ kind: 'read' });
    slot.release({ error: new UnavailableError('k', 'here', 'SlowDown, HTTP 503') });
    expect(io.width).toBe(8);
  });

  it('reports p50, p99 and the rate of its answers', async () => {
    const { io, clock } = controller();
    expect(io.stats()).toMatchObject({ p50Ms: null, p99Ms: null, requestsPerSecond: 0 });
    clock.ms = 10_000;
    for (let ms = 1; ms <= 10; ms++) {
      const slot = await io.acquire({ kind: 'read', bytes: 100 });
      clock.ms += ms;
      slot.release();
    }
    clock.ms = 11_001; // one second after the first answer
    const stats = io.stats();
    expect(stats).toMatchObject({ p50Ms: 5, p99Ms: 10, answered: 10, inFlight: 0 });
    expect(stats.requestsPerSecond).toBeCloseTo(10, 5);
    expect(stats.bytesPerSecond).toBeCloseTo(1_000, 5);
  });
});

/** Takes from the front of `waiting` the slots granted so far, in order. */
async function grantedSoFar(waiting: Promise<IoSlot>[]): Promise<IoSlot[]> {
  const granted: IoSlot[] = [];
  while (waiting.length > 0 && (await settled(waiting[0]!))) granted.push(await waiting.shift()!);
  return granted;
}
