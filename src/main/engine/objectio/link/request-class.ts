/**
 * What a request's latency is compared with: the least latency recently seen for requests of
 * its kind and size (its class). A 1 MiB read takes longer than a 64 KiB one and a listing of
 * 1,000 keys longer than a HEAD on any link, loaded or not; against its class's floor, each
 * answer says by how much the link's queues stretched it, whatever the mix of requests.
 *
 * The floor is the minimum of the current and the previous window of `WINDOW` answers of the
 * class, so a link that got slower for good (a route change, a busier store) is re-learned
 * within two windows instead of being judged forever against a latency it no longer has.
 * Pure data: no clock, no I/O.
 */

export type RequestKind = 'read' | 'list' | 'head' | 'delete';

/** Answers of a class per window of its floor. */
const WINDOW = 256;

/** Sizes in steps of 4x from 16 KiB: 0 up to 16 KiB, 1 to 64 KiB, 2 to 256 KiB... */
function sizeStep(bytes: number): number {
  let step = 0;
  for (let limit = 16 * 1024; bytes > limit && step < 8; limit *= 4) step += 1;
  return step;
}

export function requestClass(kind: RequestKind, bytes = 0): string {
  return `${kind}:${sizeStep(bytes)}`;
}

interface ClassFloor {
  current: number;
  previous: number;
  seen: number;
}

export class LatencyFloors {
  private readonly floors = new Map<string, ClassFloor>();

  /** Records an answer of `latencyMs` and says how many times its class's floor it took. */
  inflationOf(klass: string, latencyMs: number): number {
    let floor = this.floors.get(klass);
    if (floor === undefined) {
      floor = { current: Infinity, previous: Infinity, seen: 0 };
      this.floors.set(klass, floor);
    }
    if (floor.seen === WINDOW) {
      floor.previous = floor.current;
      floor.current = Infinity;
      floor.seen = 0;
    }
    floor.seen += 1;
    floor.current = Math.min(floor.current, latencyMs);
    const least = Math.max(Math.min(floor.current, floor.previous), MIN_FLOOR_MS);
    return Math.max(latencyMs, MIN_FLOOR_MS) / least;
  }
}

/**
 * Below this a latency is timer noise (a local read answered from the page cache): ratios of
 * such answers would swing wildly and say nothing about queues.
 */
const MIN_FLOOR_MS = 0.05;
