/**
 * A connection's controller bounds, made from what its backend tells about itself
 * (`ObjectIo.link`, `backend-link.ts`). A remote store (S3) starts wide and may climb to the sockets its HTTP
 * agent keeps: on a 50 ms link each request in flight is worth a round trip. A local directory
 * stays small: its reads run on one read thread and libuv's four pool threads, and a queue
 * deeper than those only holds memory.
 */
import type { ObjectIo } from '../object-io';
import { LOCAL_LINK, type LinkShape } from './backend-link';
import { IoController, type IoControllerOptions } from './io-controller';

export { LOCAL_LINK, type LinkShape };

/** Bytes the answers in flight on one connection may hold at once. */
export const LINK_MEMORY_BYTES = 64 * 1024 * 1024;

export function controllerOptionsFor(shape: LinkShape): IoControllerOptions {
  return shape.remote
    ? { floor: 4, initial: 16, ceiling: shape.maxInFlight, memoryBytes: LINK_MEMORY_BYTES }
    : { floor: 2, initial: 8, ceiling: shape.maxInFlight, memoryBytes: LINK_MEMORY_BYTES };
}

/**
 * A controller that keeps `width` requests in flight whatever it measures, with no memory
 * bound: a baseline's fixed concurrency (the bench's raw requests at 64 in flight), a test's.
 */
export function fixedLink(width: number): IoController {
  return new IoController({
    floor: width,
    initial: width,
    ceiling: width,
    memoryBytes: Number.MAX_SAFE_INTEGER,
  });
}

/**
 * A new controller for `io` (a backend that says nothing of itself is taken for a local one).
 * Each call makes its own: a caller that shares a link (a connection's views) keeps one.
 */
export function ioControllerFor(io: Pick<ObjectIo, 'link'>): IoController {
  return new IoController(controllerOptionsFor(io.link ?? LOCAL_LINK));
}
