/**
 * What a request's latency is compared with: the least latency recently seen for requests of
 * its kind and size (its class). A 1 MiB read takes longer than a 64 KiB one and a listing of
 * 1,000 keys longer than a HEAD on any link, loaded or not; against its class's floor, each
 * answer says by how much the link's queues stretched it, whatever the mix of requests.
 *
 * The floor is the least latency the class ever had on this link, never raised: answers to a
 * link held at a steady load all wait in the same queues, so a floor re-learned from recent
 * answers would rise to the loaded latency, and a queue would look like none. A link that got
 * slower for good then reads as stretched; the limit rule climbs on throughput there, which
 * a constant error in the floor does not change. Pure data: no clock, no I/O.
 */

export type RequestKind = 'read' | 'list' | 'head' | 'delete';

/** Sizes in steps of 4x from 16 KiB: 0 up to 16 KiB, 1 to 64 KiB, 2 to 256 KiB... */
function sizeStep(bytes: number): number {
  let step = 0;
  for (let limit = 16 * 1024; bytes > limit && step < 8; limit *= 4) step += 1;
  return step;
}

export function requestClass(kind: RequestKind, bytes = 0): string {
  return `${kind}:${sizeStep(bytes)}`;
}

export class LatencyFloors {
  private readonly floors = new Map<string, number>();

  /** Records an answer of `latencyMs` and says how many times its class's floor it took. */
  inflationOf(klass: string, latencyMs: number): number {
    const answered = Math.max(latencyMs, MIN_FLOOR_MS);
    const floor = Math.min(this.floors.get(klass) ?? Infinity, answered);
    this.floors.set(klass, floor);
    return answered / floor;
  }

  /**
   * The fastest answer of any class: the link's round trip as measured (a request's latency
   * less its queueing and transfer), null before any answer.
   */
  lowest(): number | null {
    return this.floors.size === 0 ? null : Math.min(...this.floors.values());
  }
}

/**
 * Below this a latency is timer noise (a local read answered from the page cache): ratios of
 * such answers would swing wildly and say nothing about queues.
 */
const MIN_FLOOR_MS = 0.05;
